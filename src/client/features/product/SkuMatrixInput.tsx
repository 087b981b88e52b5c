import { useEffect, useMemo, useRef, useState, type HTMLAttributes } from 'react'
import { Alert, Button, Checkbox, Input, Space, Spin, Table, Tag, Tooltip } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { observer, useForm } from '@formily/react'
import { call } from '../../api/call.js'
import { useSessionRead } from '../../app/use-call.js'
import { product } from '../../../shared/contracts/product.js'
import type { FormControlProps } from '../../components/form-controls.js'
import { useFeedback } from '../../components/feedback.js'
import {
  comboKey,
  inItemOrder,
  linesOf,
  matrixRows,
  MAX_SALE_PROP_GROUPS,
  missingCombos,
  PRICE_FIELDS,
  selectionOf,
  suggestedCode,
  valueOf,
  type MatrixRow,
  type PriceField,
  type SkuLine,
} from './sku-lines.js'
import { clearServerErrors, FILL, Hint, idsOf, PriceInput, shown, truthy, type Values } from './shared.js'
import { tr, useTr } from '../../i18n/use-tr.js'
import { serverMessageMatcher } from './server-message-match.js'
import { RequiredMark } from '../../components/RequiredMark.js'

interface SaleItem {
  id: string
  code: string
  name: string
  available: boolean
}

interface SaleGroup {
  id: string
  name: string
  /** Enabled items, and disabled ones too (an existing SKU may still use one). */
  items: SaleItem[]
}

/** The chosen groups (names) and their items, through the pickers' calls that every signed-in user may make. */
async function loadGroups(ids: readonly string[]): Promise<SaleGroup[]> {
  const [groups, ...pages] = await Promise.all([
    call(product.salePropGroups, [...ids]),
    ...ids.map((groupId) => call(product.saleProps, { groupId, available: 'all', pageSize: 500 })),
  ])
  return ids.map((id, i) => ({
    id,
    name: String(groups.find((g) => g.id === id)?.name ?? ''),
    items: pages[i].datas.map((r) => ({ id: r.id, code: String(r.code ?? ''), name: String(r.name ?? ''), available: truthy(r.available) })),
  }))
}

/** Server messages about the SKU lines (`第N行商品新增失败，具体原因：…` and the like), wherever the form put them. */
const LINE_MESSAGE = /^第\d+行商品|^商品不能为空|^未启用多销售属性的商品SPU|^销售属性组合重复|^请选择销售属性组|^销售属性数据有误/
const isLineMessage = serverMessageMatcher(LINE_MESSAGE)

/** Read at render time, so a language switch shows the new labels. */
const priceLabel = (f: PriceField): string => ({ purchasePrice: tr('采购价'), salePrice: tr('销售价'), retailPrice: tr('零售价') })[f]
const batchLabel = (f: PriceField): string => ({ purchasePrice: tr('批量采购价'), salePrice: tr('批量销售价'), retailPrice: tr('批量零售价') })[f]

const Required = ({ children }: { children: string }) => (
  <span>
    <RequiredMark />
    {children}
  </span>
)

/** Item names the record's SKU rows carry (`salePropItem1Name`), for items the selector no longer answers. */
function recordItemNames(record: Record<string, unknown> | undefined): Map<string, string> {
  const out = new Map<string, string>()
  const rows = Array.isArray(record?.products) ? (record.products as Record<string, unknown>[]) : []
  for (const r of rows) {
    for (const k of [1, 2]) {
      const id = r[`salePropItem${k}Id`]
      const name = r[`salePropItem${k}Name`]
      if (typeof id === 'string' && id && typeof name === 'string') out.set(id, name)
    }
  }
  return out
}

/**
 * The SKU lines of a SPU (`productPoly.products`) as a matrix: the user ticks items of the chosen
 * sale-property groups (at most two, the form's `salePropGroupIds`) and gets one line per combination,
 * with code / SKU / external code and prices. Typed values stay with their combination when the ticks
 * change; on modify the existing SKUs keep their ids and those that would go are shown as 将删除.
 */
export default function SkuMatrixInput(props: FormControlProps) {
  return props.readPretty ? <SkuMatrixView value={props.value} record={props.record} /> : <SkuMatrixEditor {...props} />
}

const SkuMatrixEditor = observer(function SkuMatrixEditor({ value, onChange, disabled, readOnly, record }: FormControlProps) {
  const tr = useTr()
  const form = useForm<Values>()
  const { message } = useFeedback()
  const values = form.values
  const chosenGroups = idsOf(values.salePropGroupIds)
  const tooMany = chosenGroups.length > MAX_SALE_PROP_GROUPS
  const groups = tooMany ? [] : chosenGroups
  const groupKey = groups.join(',')
  const adding = !record
  const editable = !disabled && !readOnly

  const current = linesOf(value)
  const existing = useMemo(() => linesOf(record?.products), [record])
  const names = useMemo(() => recordItemNames(record), [record])
  const [selected, setSelected] = useState<Record<string, string[]>>(() => selectionOf(current, groups))
  const [excluded, setExcluded] = useState<Set<string>>(() => new Set(missingCombos(groups, selectionOf(current, groups), current)))
  const cache = useRef<Map<string, SkuLine>>(new Map(current.map((l) => [comboKey(l.items), l])))
  const [batch, setBatch] = useState<Record<PriceField, string | null>>({ purchasePrice: null, salePrice: null, retailPrice: null })

  const { data: info, isLoading, error } = useSessionRead(groups.length > 0 && ['product-sku-groups', groupKey], () => loadGroups(groups), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  })
  const groupInfo = (i: number): SaleGroup | undefined => (info && info[i]?.id === groups[i] ? info[i] : undefined)

  const ordered = (sel: Record<string, string[]>) =>
    Object.fromEntries(groups.map((g, i) => [g, inItemOrder(sel[g] ?? [], groupInfo(i)?.items.map((it) => it.id) ?? [])]))
  const compute = (sel: Record<string, string[]>, ex: Set<string>) =>
    matrixRows({ groupIds: groups, selected: ordered(sel), excluded: ex, current, cache: cache.current, existing })
  const rows = compute(selected, excluded)

  const emit = (next: MatrixRow[]) => {
    for (const r of next) cache.current.set(r.key, r.line)
    clearServerErrors(form, isLineMessage)
    onChange?.(valueOf(next))
  }

  // A new choice of groups (adding) rebuilds the lines; what was typed stays in the cache by combination.
  const lastGroups = useRef(groupKey)
  useEffect(() => {
    if (lastGroups.current === groupKey) return
    lastGroups.current = groupKey
    emit(compute(selected, excluded))
    // Choosing groups means the SPU has sale properties (the server sets the flag the same way).
    if (adding && groups.length && !truthy(values.multiSaleprop) && form.query('multiSaleprop').take())
      form.setValuesIn('multiSaleprop', true)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [groupKey])

  const itemOf = (gi: number, id: string | undefined) => (id ? groupInfo(gi)?.items.find((it) => it.id === id) : undefined)
  const itemName = (gi: number, id: string | undefined) => (id ? (itemOf(gi, id)?.name ?? names.get(id) ?? id) : '')
  const rowLabel = (r: MatrixRow) => (r.items.length ? `${r.items.map((id, gi) => itemName(gi, id)).join(' ')} ` : '')

  const tick = (groupId: string, ids: string[]) => {
    const next = { ...selected, [groupId]: ids }
    setSelected(next)
    emit(compute(next, excluded))
  }
  const setLine = (key: string, patch: Partial<SkuLine>) =>
    emit(rows.map((r) => (r.key === key ? { ...r, line: { ...r.line, ...patch } } : r)))
  const exclude = (key: string, out: boolean) => {
    const next = new Set(excluded)
    if (out) next.add(key)
    else next.delete(key)
    setExcluded(next)
    emit(compute(selected, next))
  }
  /** Brings back an existing SKU whose item was unticked: its items are ticked again. */
  const retick = (r: MatrixRow) => {
    const next = { ...selected }
    groups.forEach((g, gi) => {
      const id = r.items[gi]
      if (id && !(next[g] ?? []).includes(id)) next[g] = [...(next[g] ?? []), id]
    })
    const ex = new Set(excluded)
    ex.delete(r.key)
    setSelected(next)
    setExcluded(ex)
    emit(compute(next, ex))
  }
  const fillPrices = () => {
    const patch = Object.fromEntries(PRICE_FIELDS.filter((f) => batch[f] !== null).map((f) => [f, batch[f]])) as Partial<SkuLine>
    if (!Object.keys(patch).length) {
      message.warning(tr('请输入要填充的价格'))
      return
    }
    emit(rows.map((r) => (r.state === 'active' ? { ...r, line: { ...r.line, ...patch } } : r)))
  }
  const fillCodes = () => {
    const spuCode = typeof values.code === 'string' ? values.code.trim() : ''
    if (!spuCode) {
      message.warning(tr('请先输入货号'))
      return
    }
    emit(
      rows.map((r) => {
        if (r.state !== 'active') return r
        const code = r.line.code.trim() ? r.line.code : suggestedCode(spuCode, r.items.map((id, gi) => itemOf(gi, id)?.code ?? ''))
        const skuCode = r.line.skuCode.trim() ? r.line.skuCode : code
        return { ...r, line: { ...r.line, code, skuCode } }
      }),
    )
  }

  if (tooMany)
    return <Alert type="error" showIcon message={tr(`最多选择${MAX_SALE_PROP_GROUPS}个销售属性组，请重新选择销售属性组`)} />

  const activeRows = rows.filter((r) => r.state === 'active')
  const seq = new Map(activeRows.map((r, i) => [r.key, i + 1]))
  const dropping = rows.filter((r) => r.existing && r.state !== 'active').length
  const showState = !adding || rows.some((r) => r.state !== 'active')

  const stateTag = (r: MatrixRow) => {
    if (r.state === 'active') return r.existing ? <Tag>{tr('已有')}</Tag> : <Tag color="green">{tr('新增')}</Tag>
    return r.existing ? <Tag color="red">{tr('将删除')}</Tag> : <Tag>{tr('不生成')}</Tag>
  }
  const lineInput = (r: MatrixRow, field: 'code' | 'skuCode' | 'externalCode', label: string) => (
    <Input
      value={r.line[field]}
      disabled={!editable || r.state !== 'active'}
      aria-label={`${rowLabel(r)}${label}`}
      placeholder={tr(`请输入${label}`)}
      onChange={(e) => setLine(r.key, { [field]: e.target.value })}
    />
  )

  const columns: ColumnsType<MatrixRow> = [
    { key: 'seq', title: tr('序号'), width: 56, align: 'center', render: (_v, r) => seq.get(r.key) ?? '-' },
    ...groups.map((_g, gi) => ({
      key: `group${gi}`,
      title: groupInfo(gi)?.name || tr(`销售属性${gi + 1}`),
      width: 96,
      render: (_v: unknown, r: MatrixRow) => itemName(gi, r.items[gi]),
    })),
    { key: 'code', title: <Required>{tr('编号')}</Required>, width: 170, render: (_v, r) => lineInput(r, 'code', tr('编号')) },
    { key: 'skuCode', title: <Required>SKU</Required>, width: 170, render: (_v, r) => lineInput(r, 'skuCode', 'SKU') },
    { key: 'externalCode', title: tr('外部编号'), width: 150, render: (_v, r) => lineInput(r, 'externalCode', tr('外部编号')) },
    ...PRICE_FIELDS.map((f) => ({
      key: f,
      title: priceLabel(f),
      width: 120,
      render: (_v: unknown, r: MatrixRow) => (
        <PriceInput
          value={r.line[f]}
          disabled={!editable || r.state !== 'active'}
          aria-label={`${rowLabel(r)}${priceLabel(f)}`}
          onChange={(v) => setLine(r.key, { [f]: v })}
        />
      ),
    })),
  ]
  if (showState) columns.push({ key: 'state', title: tr('状态'), width: 80, align: 'center', render: (_v, r) => stateTag(r) })
  if (groups.length && editable)
    columns.push({
      key: 'op',
      title: tr('操作'),
      width: 72,
      align: 'center',
      render: (_v, r) =>
        r.state === 'active' ? (
          <Button type="link" size="small" aria-label={tr(`移除${rowLabel(r)}`)} onClick={() => exclude(r.key, true)}>
            {tr('移除')}
          </Button>
        ) : (
          <Button type="link" size="small" aria-label={tr(`恢复${rowLabel(r)}`)} onClick={() => (r.state === 'unticked' ? retick(r) : exclude(r.key, false))}>
            {tr('恢复')}
          </Button>
        ),
    })

  return (
    <div className="product-sku-matrix" style={FILL}>
      {groups.length > 0 && (
        <div style={{ marginBottom: 8, display: 'flex', flexDirection: 'column', gap: 6 }}>
          {isLoading && <Spin size="small" />}
          {error && <Alert type="error" showIcon message={tr('销售属性加载失败')} />}
          {groups.map((g, gi) => {
            const group = groupInfo(gi)
            if (!group) return null
            const ticked = selected[g] ?? []
            const options = group.items
              .filter((it) => it.available || ticked.includes(it.id))
              .map((it) => ({
                value: it.id,
                label: it.available ? it.name : tr(`${it.name}（已停用）`),
                disabled: !editable || (!it.available && !ticked.includes(it.id)),
              }))
            return (
              <div key={g} role="group" aria-label={group.name} style={{ display: 'flex', gap: 8, alignItems: 'baseline' }}>
                <span style={{ flex: 'none', minWidth: 64, color: 'rgba(0,0,0,0.65)' }}>{group.name}{tr('：')}</span>
                {options.length ? (
                  <Checkbox.Group options={options} value={ticked} onChange={(ids) => tick(g, ids as string[])} />
                ) : (
                  <Hint type="warning">{tr('该销售属性组没有启用的销售属性')}</Hint>
                )}
              </div>
            )
          })}
        </div>
      )}
      {!groups.length && adding && truthy(values.multiSaleprop) && (
        <Alert style={{ marginBottom: 8 }} type="warning" showIcon message={tr('已启用多销售属性，请选择销售属性组')} />
      )}
      {editable && (
        <Space wrap size={8} style={{ marginBottom: 8 }}>
          <span style={{ color: 'rgba(0,0,0,0.65)' }}>{tr('批量设置：')}</span>
          {PRICE_FIELDS.map((f) => (
            <PriceInput
              key={f}
              value={batch[f]}
              aria-label={batchLabel(f)}
              placeholder={priceLabel(f)}
              style={{ width: 110 }}
              onChange={(v) => setBatch((b) => ({ ...b, [f]: v }))}
            />
          ))}
          <Button size="small" onClick={fillPrices} disabled={!activeRows.length}>
            {tr('填充价格')}
          </Button>
          <Tooltip title={tr('为编号为空的商品生成“货号 + 销售属性编号”，SKU为空时同编号')}>
            <Button size="small" onClick={fillCodes} disabled={!activeRows.length}>
              {tr('生成编号')}
            </Button>
          </Tooltip>
        </Space>
      )}
      <Table<MatrixRow>
        rowKey={(r) => r.key || 'single'}
        size="small"
        bordered
        pagination={false}
        columns={columns}
        dataSource={rows}
        scroll={{ x: 'max-content', y: 420 }}
        onRow={(r) => ({ style: r.state === 'active' ? undefined : { opacity: 0.6 }, 'data-state': r.state }) as HTMLAttributes<HTMLElement>}
        locale={{ emptyText: groups.length ? tr('请勾选销售属性生成商品') : tr('暂无数据') }}
      />
      <div style={{ marginTop: 4 }}>
        <Hint>
          {tr(`共 ${activeRows.length} 个商品`)}
          {dropping > 0 && tr(`，保存后将删除 ${dropping} 个已有商品`)}
        </Hint>
      </div>
    </div>
  )
})

/** Detail forms: the SPU's SKUs as a table. */
function SkuMatrixView({ value, record }: { value: unknown; record?: Record<string, unknown> }) {
  const tr = useTr()
  const rows = (Array.isArray(value) ? value : []) as Record<string, unknown>[]
  const hasItems = [1, 2].filter((k) => rows.some((r) => r[`salePropItem${k}Id`]))
  // The record names its groups in order (`salePropGroupIdsName`, joined with "，").
  const groupNames = typeof record?.salePropGroupIdsName === 'string' ? record.salePropGroupIdsName.split('，') : []
  const columns: ColumnsType<Record<string, unknown>> = [
    { key: 'seq', title: tr('序号'), width: 56, align: 'center', render: (_v, _r, i) => i + 1 },
    ...hasItems.map((k) => ({ key: `item${k}`, title: groupNames[k - 1] || tr(`销售属性${k}`), render: (_v: unknown, r: Record<string, unknown>) => shown(r[`salePropItem${k}Name`]) })),
    { key: 'code', title: tr('编号'), render: (_v, r) => shown(r.code) },
    { key: 'name', title: tr('名称'), render: (_v, r) => shown(r.name) },
    { key: 'skuCode', title: 'SKU', render: (_v, r) => shown(r.skuCode) },
    { key: 'externalCode', title: tr('外部编号'), render: (_v, r) => shown(r.externalCode) },
    ...PRICE_FIELDS.map((f) => ({ key: f, title: priceLabel(f), align: 'right' as const, render: (_v: unknown, r: Record<string, unknown>) => shown(r[f]) })),
    {
      key: 'available',
      title: tr('状态'),
      align: 'center',
      render: (_v, r) => (r.available === undefined ? '-' : truthy(r.available) ? <Tag color="green">{tr('启用')}</Tag> : <Tag color="red">{tr('停用')}</Tag>),
    },
  ]
  return (
    <div style={FILL}>
      <Table<Record<string, unknown>>
        rowKey={(r, i) => String(r.id ?? i)}
        size="small"
        bordered
        pagination={false}
        columns={columns}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
      />
    </div>
  )
}
