import { useMemo, useRef, useState } from 'react'
import { Alert, Button, InputNumber, Space, Table, Typography } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import type { ColumnsType } from 'antd/es/table'
import { observer, useForm } from '@formily/react'
import { api } from '../../api/http.js'
import { useMeta } from '../../api/meta.js'
import PickerDialog from '../../runtime/picker/PickerDialog.js'
import type { EntityRow } from '../../runtime/entity-api.js'
import type { FormControlProps } from '../../components/form-controls.js'
import { useFeedback } from '../../components/feedback.js'
import { buildEntityModel, type EntityModel } from '../../../shared/metadata/entity-model.js'
import { PRODUCT_TYPE } from '../../../shared/generated/enum-codes.js'
import {
  bundleLinesOf,
  bundleTotals,
  bundleWire,
  lineAmount,
  matches,
  money,
  type BundleLine,
  type BundleTotals,
  type ComponentInfo,
} from './bundle-lines.js'
import { clearServerErrors, FILL, Hint, PriceInput, shown, useClearOnInput, useShownWhen, type Values } from './shared.js'
import { useTr } from '../../i18n/use-tr.js'
import { serverMessageMatcher } from './server-message-match.js'

const PRODUCT = 'product'

/** Server messages about the components and the bundle price rule. */
const BUNDLE_MESSAGE = /^第\d+行单品|^单品数据不能为空|^单品的销售价设置错误|^单品的零售价设置错误|^只有组合商品才能设置单品/
const isBundleMessage = serverMessageMatcher(BUNDLE_MESSAGE)

/**
 * The product picker narrowed to normal products: only they can be components (the server answers
 * 组合商品的单品只能是普通商品！ otherwise). The 商品类型 condition starts at 普通商品 and stays visible.
 */
export function normalProductsPicker(entity: EntityModel): EntityModel {
  const picker = entity.file.views?.picker
  if (!picker) return entity
  const filters = picker.filters ?? []
  const has = filters.some((f) => f.field === 'productType')
  return buildEntityModel({
    ...entity.file,
    views: {
      ...entity.file.views,
      picker: {
        ...picker,
        filters: has
          ? filters.map((f) => (f.field === 'productType' ? { ...f, default: PRODUCT_TYPE.NORMAL } : f))
          : [...filters, { field: 'productType', op: 'eq' as const, default: PRODUCT_TYPE.NORMAL }],
      },
    },
  })
}

/** What the record's lines tell about their products (`productCode`, `productName`, `skuCode`). */
function recordInfo(record: Record<string, unknown> | undefined): Map<string, ComponentInfo> {
  const out = new Map<string, ComponentInfo>()
  for (const r of Array.isArray(record?.productBundles) ? (record.productBundles as Record<string, unknown>[]) : [])
    out.set(String(r.productId), { code: r.productCode as string, name: r.productName as string, skuCode: r.skuCode as string })
  return out
}

const infoOfRow = (r: EntityRow): ComponentInfo => ({ code: r.code as string, name: r.name as string, skuCode: r.skuCode as string })

/**
 * The components of a BUNDLE product (`product.productBundles`), shown only while 商品类型 is 组合商品:
 * components come from the product picker (normal products, several at once), each with its
 * quantity and the sale / retail price it has inside the bundle. The summary adds them up with
 * decimal.js and warns when the bundle's own prices differ; saving is still the server's decision.
 */
export default function BundleLinesInput(props: FormControlProps) {
  useShownWhen('bundle', (values) => Number(values.productType) === PRODUCT_TYPE.BUNDLE)
  // The price rule's message sits on 销售价 / 零售价: editing them (or the type) is answering it.
  useClearOnInput('bundle', ['salePrice', 'retailPrice', 'productType'], isBundleMessage)
  return props.readPretty ? <BundleView value={props.value} record={props.record} /> : <BundleEditor {...props} />
}

/** The bundle's own prices, read by the observer that renders the summary (so that it follows them). */
const ownPrices = (values: Values) => ({ salePrice: values.salePrice, retailPrice: values.retailPrice })

function Summary({ totals, own, onApply }: { totals: BundleTotals; own: { salePrice: unknown; retailPrice: unknown }; onApply?: () => void }) {
  const tr = useTr()
  const saleOk = matches(totals.salePrice, own.salePrice)
  const retailOk = matches(totals.retailPrice, own.retailPrice)
  const problems: string[] = []
  if (saleOk === false) problems.push(tr(`销售价 ${shown(own.salePrice)} 与组合销售价合计 ${money(totals.salePrice)} 不一致，保存将不通过`))
  if (retailOk === false) problems.push(tr(`零售价 ${shown(own.retailPrice)} 与零售价合计 ${money(totals.retailPrice)} 不一致，保存将不通过`))
  return (
    <div style={{ marginTop: 8 }} aria-live="polite">
      <Typography.Text strong data-testid="bundle-summary">
        {tr(`组合销售价合计 ${money(totals.salePrice)} / 零售价合计 ${money(totals.retailPrice)}`)}
      </Typography.Text>
      {problems.length > 0 && (
        <Alert
          style={{ marginTop: 6 }}
          type="warning"
          showIcon
          message={problems.map((p) => (
            <div key={p}>{p}</div>
          ))}
          action={
            onApply && (
              <Button size="small" onClick={onApply}>
                {tr('按合计设置价格')}
              </Button>
            )
          }
        />
      )}
    </div>
  )
}

const BundleEditor = observer(function BundleEditor({ value, onChange, disabled, readOnly, record }: FormControlProps) {
  const tr = useTr()
  const form = useForm<Values>()
  const meta = useMeta()
  const { message } = useFeedback()
  const editable = !disabled && !readOnly
  const lines = bundleLinesOf(value)
  // The lines as last sent: prices that arrive later patch these, not a stale render's.
  const latest = useRef<BundleLine[]>(lines)
  latest.current = lines
  const [info, setInfo] = useState<Map<string, ComponentInfo>>(() => recordInfo(record))
  const [picking, setPicking] = useState(false)
  const [mounted, setMounted] = useState(false)
  const picker = useMemo(() => {
    const entity = meta?.pickerEntity(PRODUCT)
    return entity ? normalProductsPicker(entity) : undefined
  }, [meta])

  const emit = (next: BundleLine[]) => {
    latest.current = next
    clearServerErrors(form, isBundleMessage)
    onChange?.(bundleWire(next))
  }
  const patch = (productId: string, change: Partial<BundleLine>) =>
    emit(latest.current.map((l) => (l.productId === productId ? { ...l, ...change } : l)))

  /** A new component starts with quantity 1 and, once loaded, its own sale and retail prices. */
  const choose = (rows: EntityRow[]) => {
    setPicking(false)
    const self = typeof record?.id === 'string' ? record.id : undefined
    const chosen = rows.filter((r) => r.id !== self)
    if (chosen.length < rows.length) message.warning(tr('组合商品不能包含自身'))
    setInfo((prev) => new Map([...prev, ...chosen.map((r) => [r.id, infoOfRow(r)] as const)]))
    const kept = latest.current.filter((l) => chosen.some((r) => r.id === l.productId))
    const fresh = chosen.filter((r) => !latest.current.some((l) => l.productId === r.id))
    emit([...kept, ...fresh.map((r) => ({ productId: r.id, bundleNum: 1, salePrice: null, retailPrice: null }))])
    for (const r of fresh)
      api
        .get<EntityRow>('/basedata/product', { id: r.id }, { hideError: true })
        .then((p) => {
          const line = latest.current.find((l) => l.productId === r.id)
          if (!line) return
          patch(r.id, {
            salePrice: line.salePrice ?? (p.salePrice === null || p.salePrice === undefined ? null : String(p.salePrice)),
            retailPrice: line.retailPrice ?? (p.retailPrice === null || p.retailPrice === undefined ? null : String(p.retailPrice)),
          })
        })
        .catch(() => undefined)
  }

  const totals = bundleTotals(lines)
  const canSetPrices = editable && Boolean(form.query('salePrice').take()?.editable) && Boolean(form.query('retailPrice').take()?.editable)
  const applyTotals = () => {
    form.setValuesIn('salePrice', money(totals.salePrice))
    form.setValuesIn('retailPrice', money(totals.retailPrice))
    clearServerErrors(form, isBundleMessage)
  }
  const labelOf = (l: BundleLine) => info.get(l.productId)?.code ?? info.get(l.productId)?.name ?? l.productId

  const columns: ColumnsType<BundleLine> = [
    { key: 'seq', title: tr('序号'), width: 56, align: 'center', render: (_v, _r, i) => i + 1 },
    { key: 'code', title: tr('编号'), width: 120, render: (_v, l) => shown(info.get(l.productId)?.code) },
    { key: 'name', title: tr('名称'), width: 160, render: (_v, l) => shown(info.get(l.productId)?.name) },
    { key: 'skuCode', title: 'SKU', width: 120, render: (_v, l) => shown(info.get(l.productId)?.skuCode) },
    {
      key: 'bundleNum',
      title: tr('包含数量'),
      width: 110,
      render: (_v, l) => (
        <InputNumber<number>
          min={1}
          precision={0}
          step={1}
          value={l.bundleNum}
          disabled={!editable}
          aria-label={tr(`${labelOf(l)}包含数量`)}
          style={{ width: '100%' }}
          onChange={(v) => patch(l.productId, { bundleNum: v ?? null })}
        />
      ),
    },
    {
      key: 'salePrice',
      title: tr('销售价'),
      width: 120,
      render: (_v, l) => (
        <PriceInput value={l.salePrice} disabled={!editable} aria-label={tr(`${labelOf(l)}销售价`)} onChange={(v) => patch(l.productId, { salePrice: v })} />
      ),
    },
    {
      key: 'retailPrice',
      title: tr('零售价'),
      width: 120,
      render: (_v, l) => (
        <PriceInput value={l.retailPrice} disabled={!editable} aria-label={tr(`${labelOf(l)}零售价`)} onChange={(v) => patch(l.productId, { retailPrice: v })} />
      ),
    },
    {
      key: 'amount',
      title: tr('小计（销售/零售）'),
      width: 140,
      align: 'right',
      render: (_v, l) => {
        const sale = lineAmount(l.bundleNum, l.salePrice)
        const retail = lineAmount(l.bundleNum, l.retailPrice)
        return `${sale ? money(sale) : '-'} / ${retail ? money(retail) : '-'}`
      },
    },
  ]
  if (editable)
    columns.push({
      key: 'op',
      title: tr('操作'),
      width: 64,
      align: 'center',
      render: (_v, l) => (
        <Button type="link" size="small" danger aria-label={tr(`删除单品${labelOf(l)}`)} onClick={() => emit(latest.current.filter((x) => x.productId !== l.productId))}>
          {tr('删除')}
        </Button>
      ),
    })

  return (
    <div className="product-bundle-lines" style={FILL}>
      {editable && (
        <Space style={{ marginBottom: 8 }}>
          <Button
            icon={<PlusOutlined aria-hidden />}
            disabled={!picker}
            onClick={() => {
              setMounted(true)
              setPicking(true)
            }}
          >
            {tr('添加单品')}
          </Button>
          <Hint>{tr('组合商品的单品只能是普通商品；销售价、零售价须等于各单品 包含数量 × 单价 之和')}</Hint>
        </Space>
      )}
      <Table<BundleLine>
        rowKey="productId"
        size="small"
        bordered
        pagination={false}
        columns={columns}
        dataSource={lines}
        scroll={{ x: 'max-content', y: 360 }}
        locale={{ emptyText: tr('请添加单品') }}
      />
      <Summary totals={totals} own={ownPrices(form.values)} onApply={canSetPrices && lines.length ? applyTotals : undefined} />
      {mounted && meta && picker && (
        <PickerDialog
          meta={meta}
          entity={picker}
          open={picking}
          multiple
          value={lines.map((l) => ({ id: l.productId, ...info.get(l.productId) }) as EntityRow)}
          onCancel={() => setPicking(false)}
          onClear={() => {
            setPicking(false)
            emit([])
          }}
          onConfirm={choose}
        />
      )}
    </div>
  )
})

/** Detail forms: the components and their totals. */
const BundleView = observer(function BundleView({ value, record }: { value: unknown; record?: Record<string, unknown> }) {
  const tr = useTr()
  const form = useForm<Values>()
  const lines = bundleLinesOf(value)
  const info = recordInfo(record)
  const columns: ColumnsType<BundleLine> = [
    { key: 'seq', title: tr('序号'), width: 56, align: 'center', render: (_v, _r, i) => i + 1 },
    { key: 'code', title: tr('编号'), render: (_v, l) => shown(info.get(l.productId)?.code) },
    { key: 'name', title: tr('名称'), render: (_v, l) => shown(info.get(l.productId)?.name) },
    { key: 'skuCode', title: 'SKU', render: (_v, l) => shown(info.get(l.productId)?.skuCode) },
    { key: 'bundleNum', title: tr('包含数量'), align: 'right', render: (_v, l) => shown(l.bundleNum) },
    { key: 'salePrice', title: tr('销售价'), align: 'right', render: (_v, l) => shown(l.salePrice) },
    { key: 'retailPrice', title: tr('零售价'), align: 'right', render: (_v, l) => shown(l.retailPrice) },
  ]
  return (
    <div style={FILL}>
      <Table<BundleLine> rowKey="productId" size="small" bordered pagination={false} columns={columns} dataSource={lines} />
      <Summary totals={bundleTotals(lines)} own={ownPrices(form.values)} />
    </div>
  )
})
