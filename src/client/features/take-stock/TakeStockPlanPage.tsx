import { useState } from 'react'
import { Button, Form, Input, InputNumber, Select, Space, Table, Tag } from 'antd'
import { ConfirmLink } from '../../components/ConfirmLink.js'
import { PlusOutlined } from '@ant-design/icons'
import type { ColumnType } from 'antd/es/table'
import { useMeta, type Meta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import PickerInput from '../../runtime/picker/PickerInput.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import ListView from '../../runtime/ListView.js'
import { TAKE_PLAN_VIEW } from '../../views/take-stock.js'
import { SEQ_WIDTH } from '../../runtime/list-columns.js'
import { enumOptions } from '../../runtime/query-params.js'
import { PRODUCT_COLUMNS } from '../../runtime/document/line-columns.js'
import { diffOf, expectedTakeNum, handleBody } from './plan-lines.js'
import { call } from '../../api/call.js'
import { useSessionRead } from '../../app/use-call.js'
import { takeStock, type PlanFlags, type PlanLine, type PlanRow } from '../../../shared/contracts/stock.js'
import { useTr } from '../../i18n/use-tr.js'
import GuardedModal from '../../runtime/GuardedModal.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const PLAN_STATUS = 'TAKE_STOCK_PLAN_STATUS'
const PLAN_TYPE = 'TAKE_STOCK_PLAN_TYPE'
/** Plan statuses and types (schemas/enums.json). */
const CREATED = 0
const DIFF_CREATED = 6
const CANCELED = 12
const CATEGORY = 2
const BRAND = 3
const STATUS_COLOR: Record<number, string> = { 0: 'processing', 6: 'warning', 9: 'success', 12: 'default' }


/**
 * 盘点任务管理 (domain-rules §2.6, views/take-stock.ts): the plans with 新增 (warehouse, take type, categories or brands),
 * 查看 (lines: snapshot, moves during the count, counted, difference), 生成差异, 处理差异 (counts
 * editable when the configuration allows), 作废 and 删除 (canceled plans only).
 */
export default function TakeStockPlanPage({ openId }: { openId?: string }) {
  const meta = useMeta()
  return <FeedbackProvider>{meta ? <PlanList meta={meta} openId={openId} /> : null}</FeedbackProvider>
}

/** `openId` (the address's `?id=`, e.g. from a stock ledger row): that plan's 查看 opens at once. */
/** `openId` (the address's `?id=`, e.g. from a stock ledger row): that plan's 查看 opens at once. */
function PlanList({ meta, openId }: { meta: Meta; openId?: string }) {
  const tr = useTr()
  const { message } = useFeedback()
  const can = usePermission()
  const [version, setVersion] = useState(0)
  const [adding, setAdding] = useState(false)
  const [viewing, setViewing] = useState<{ id: string; handle: boolean } | null>(openId ? { id: openId, handle: false } : null)
  const reload = () => setVersion((v) => v + 1)
  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work()
      message.success(done)
      reload()
    } catch {
      // The api layer has shown the server's message.
    }
  }
  const status = (row: PlanRow) => Number(row.takeStatus)
  return (
    <ListView<PlanRow>
      className="take-stock-plans"
      source={TAKE_PLAN_VIEW}
      version={version}
      render={{
        scId: (r) => String(r.scName ?? r.scCode ?? ''),
        takeType: (r) => meta.enums.label(PLAN_TYPE, r.takeType),
        takeStatus: (r) => <Tag color={STATUS_COLOR[status(r)]}>{meta.enums.label(PLAN_STATUS, r.takeStatus)}</Tag>,
      }}
      renderToolbar={() => [
        can([PERMISSION.stock.take.plan.add]) && (
          <Button key="add" type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setAdding(true)}>
            {tr('新增')}
          </Button>
        ),
      ]}
      rowActionsWidth={300}
      renderRowActions={(row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setViewing({ id: row.id, handle: false })}>
            {tr('查看')}
          </Button>
          {status(row) === CREATED && can([PERMISSION.stock.take.plan.createDiff]) && (
            <ConfirmLink danger={false} title={tr('确定生成差异？生成后不能再新增或审核盘点单。')} onConfirm={() => act(() => call(takeStock.createDiff, { id: row.id }), tr('差异生成成功！'))}>
              {tr('生成差异')}
            </ConfirmLink>
          )}
          {status(row) === DIFF_CREATED && can([PERMISSION.stock.take.plan.handleDiff]) && (
            <Button type="link" size="small" onClick={() => setViewing({ id: row.id, handle: true })}>
              {tr('处理差异')}
            </Button>
          )}
          {[CREATED, DIFF_CREATED].includes(status(row)) && can([PERMISSION.stock.take.plan.cancel]) && (
            <ConfirmLink title={tr('确定作废该盘点任务？')} onConfirm={() => act(() => call(takeStock.cancelPlan, { id: row.id }), tr('作废成功！'))}>
              {tr('作废')}
            </ConfirmLink>
          )}
          {status(row) === CANCELED && can([PERMISSION.stock.take.plan.delete]) && (
            <ConfirmLink title={tr('确定删除该盘点任务？其盘点单将一并删除。')} onConfirm={() => act(() => call(takeStock.removePlan, { id: row.id }), tr('删除成功！'))}>
              {tr('删除')}
            </ConfirmLink>
          )}
        </Space>
      )}
      after={
        <>
          {adding && (
            <AddPlanDialog
              meta={meta}
              onClose={(saved) => {
                setAdding(false)
                if (saved) reload()
              }}
            />
          )}
          {viewing && (
            <PlanDialog
              id={viewing.id}
              handle={viewing.handle}
              onClose={(saved) => {
                setViewing(null)
                if (saved) reload()
              }}
            />
          )}
        </>
      }
    />
  )
}

function AddPlanDialog({ meta, onClose }: { meta: Meta; onClose: (saved: boolean) => void }) {
  const tr = useTr()
  const { message } = useFeedback()
  const [form] = Form.useForm<Record<string, unknown>>()
  const takeType = Form.useWatch('takeType', form) as number | undefined
  const [busy, setBusy] = useState(false)
  const save = async () => {
    const v = form.getFieldsValue(true) as Record<string, unknown>
    if (!v.scId) return void message.error(tr('仓库不能为空'))
    if (v.takeType === undefined || v.takeType === null) return void message.error(tr('盘点类别不能为空'))
    const bizIds = Array.isArray(v.bizIds) ? v.bizIds : []
    if (v.takeType === CATEGORY && !bizIds.length) return void message.error(tr('请选择商品类目！'))
    if (v.takeType === BRAND && !bizIds.length) return void message.error(tr('请选择商品品牌！'))
    setBusy(true)
    try {
      await call(takeStock.createPlan, {
        scId: v.scId as string,
        takeType: v.takeType as number,
        bizIds: [CATEGORY, BRAND].includes(Number(v.takeType)) ? (bizIds as string[]) : undefined,
        description: (v.description ?? '') as string,
      })
      message.success(tr('新增成功！'))
      onClose(true)
    } catch {
      // Shown by the api layer.
    } finally {
      setBusy(false)
    }
  }
  return (
    <GuardedModal open title={tr('新增盘点任务')} width={560} onCancel={() => onClose(false)} onOk={() => void save()} okText={tr('保存')} cancelText={tr('取消')} confirmLoading={busy} destroyOnHidden>
      <Form form={form} layout="vertical">
        <Form.Item name="scId" label={tr('仓库')} required>
          <PickerInput kind="sc" aria-label={tr('仓库')} placeholder={tr('请选择仓库')} />
        </Form.Item>
        <Form.Item name="takeType" label={tr('盘点类别')} required>
          <Select aria-label={tr('盘点类别')} options={enumOptions(PLAN_TYPE, meta.enums)} onChange={() => form.setFieldValue('bizIds', undefined)} />
        </Form.Item>
        {takeType === CATEGORY && (
          <Form.Item name="bizIds" label={tr('商品类目')} required>
            <PickerInput kind="category" multiple aria-label={tr('商品类目')} placeholder={tr('请选择商品类目')} />
          </Form.Item>
        )}
        {takeType === BRAND && (
          <Form.Item name="bizIds" label={tr('商品品牌')} required>
            <PickerInput kind="brand" multiple aria-label={tr('商品品牌')} placeholder={tr('请选择商品品牌')} />
          </Form.Item>
        )}
        <Form.Item name="description" label={tr('备注')}>
          <Input.TextArea aria-label={tr('备注')} maxLength={200} rows={3} />
        </Form.Item>
      </Form>
    </GuardedModal>
  )
}

/** 查看 (read-only) or 处理差异 (counts editable when allowChangeNum, remarks, then `PATCH …/handle`). */
function PlanDialog({ id, handle, onClose }: { id: string; handle: boolean; onClose: (saved: boolean) => void }) {
  const tr = useTr()
  const { message } = useFeedback()
  // Read afresh for each opening, as 查看 and as 处理差异 (a cached plan from before a change would show stale counts).
  const { data } = useSessionRead(['take-stock-plan', id, handle], () => call(takeStock.planDetail, { id }), { revalidateOnFocus: false })
  const [typed, setTyped] = useState<Record<string, { takeNum?: unknown; description?: string }>>({})
  const [description, setDescription] = useState('')
  const [busy, setBusy] = useState(false)
  const lines = data?.details ?? []
  const flags: PlanFlags = { allowChangeNum: Boolean(data?.allowChangeNum), autoChangeStock: Boolean(data?.autoChangeStock) }
  const settled = Number(data?.takeStatus) === 9
  const takeOf = (l: PlanLine) => {
    const t = typed[l.productId]?.takeNum
    return handle && flags.allowChangeNum && t !== undefined && t !== null && t !== '' ? Number(t) : expectedTakeNum(l, flags)
  }
  const type = (productId: string, patch: { takeNum?: unknown; description?: string }) => setTyped((t) => ({ ...t, [productId]: { ...t[productId], ...patch } }))
  const columns: ColumnType<PlanLine & Record<string, unknown>>[] = [
    { key: '__seq', title: tr('序号'), width: SEQ_WIDTH, align: 'center', render: (_v, _r, i) => i + 1 },
    ...PRODUCT_COLUMNS.slice(0, 3).map((c) => ({ key: c.key, dataIndex: c.key, title: c.title, width: c.width })),
    { key: 'stockNum', dataIndex: 'stockNum', title: tr('系统库存'), width: 90, align: 'right' },
    { key: 'totalInNum', dataIndex: 'totalInNum', title: tr('盘点期间入库'), width: 110, align: 'right' },
    { key: 'totalOutNum', dataIndex: 'totalOutNum', title: tr('盘点期间出库'), width: 110, align: 'right' },
    { key: 'oriTakeNum', title: tr('盘点数量'), width: 90, align: 'right', render: (_v, l) => (l.oriTakeNum ?? '') as number | string },
    {
      key: 'takeNum',
      title: settled || handle ? tr('最终盘点数量') : tr('预计盘点数量'),
      width: 130,
      render: (_v, l, i) =>
        handle && flags.allowChangeNum ? (
          <InputNumber
            aria-label={tr(`第${i + 1}行最终盘点数量`)}
            min={0}
            precision={0}
            style={{ width: '100%' }}
            value={(typed[l.productId]?.takeNum as number | undefined) ?? expectedTakeNum(l, flags)}
            onChange={(v) => type(l.productId, { takeNum: v ?? undefined })}
          />
        ) : l.oriTakeNum === null && !settled ? (
          ''
        ) : (
          takeOf(l)
        ),
    },
    {
      key: 'diff',
      title: tr('差异数量'),
      width: 90,
      align: 'right',
      render: (_v, l) => {
        if (l.oriTakeNum === null && !settled) return ''
        const d = diffOf(takeOf(l), l)
        return <span style={{ color: d > 0 ? '#389e0d' : d < 0 ? '#cf1322' : undefined }}>{d}</span>
      },
    },
    {
      key: 'description',
      title: tr('备注'),
      width: 180,
      render: (_v, l, i) =>
        handle ? (
          <Input aria-label={tr(`第${i + 1}行备注`)} maxLength={200} value={typed[l.productId]?.description ?? String(l.description ?? '')} onChange={(e) => type(l.productId, { description: e.target.value })} />
        ) : (
          String(l.description ?? '')
        ),
    },
  ]
  const submit = async () => {
    if (!data) return
    for (const [i, l] of lines.entries()) {
      const n = takeOf(l)
      if (!Number.isSafeInteger(n) || n < 0) return void message.error(tr(`第${i + 1}行商品的盘点数量不能为空且必须为不小于0的整数！`))
    }
    setBusy(true)
    try {
      await call(takeStock.handleDiff, handleBody(id, flags, lines, typed, description))
      message.success(tr('差异处理成功！'))
      onClose(true)
    } catch {
      // Shown by the api layer.
    } finally {
      setBusy(false)
    }
  }
  return (
    <GuardedModal
      open
      title={handle ? tr('处理差异') : tr('查看盘点任务')}
      width={1100}
      onCancel={() => onClose(false)}
      destroyOnHidden
      footer={
        <Space>
          {handle && (
            <Button type="primary" loading={busy} disabled={!data} onClick={() => void submit()}>
              {tr('确认处理')}
            </Button>
          )}
          <Button onClick={() => onClose(false)}>{handle ? tr('取消') : tr('关闭')}</Button>
        </Space>
      }
    >
      {data && (
        <Space style={{ marginBottom: 12 }} wrap>
          <span>
            {tr('单据号：')}
            {String(data.code ?? '')}
          </span>
          <span>
            {tr('仓库：')}
            {String(data.scName ?? '')}
          </span>
          {handle && <span>{flags.allowChangeNum ? tr('盘点数量可修改') : flags.autoChangeStock ? tr('盘点数量按盘点期间的出入库自动调整') : tr('按盘点数量处理')}</span>}
        </Space>
      )}
      <Table rowKey="productId" size="small" bordered loading={!data} columns={columns} dataSource={lines} pagination={false} scroll={{ x: 'max-content', y: 420 }} />
      {handle && (
        <Input.TextArea aria-label={tr('处理备注')} placeholder={tr('备注')} maxLength={200} rows={2} style={{ marginTop: 12 }} value={description} onChange={(e) => setDescription(e.target.value)} />
      )}
    </GuardedModal>
  )
}
