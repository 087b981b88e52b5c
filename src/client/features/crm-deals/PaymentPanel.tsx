import { useCallback, useEffect, useMemo, useState } from 'react'
import { Alert, Button, Form, Input, InputNumber, Space, Statistic, Table, Tag, Typography } from 'antd'
import { ConfirmLink } from '../../components/ConfirmLink.js'
import GuardedModal from '../../runtime/GuardedModal.js'
import DateInput from '../../components/DateInput.js'
import dayjs from 'dayjs'
import Decimal from 'decimal.js'
import { useMeta } from '../../api/meta.js'
import { hasPermission, useSession } from '../../app/session.js'
import { useFeedback } from '../../components/feedback.js'
import { call } from '../../api/call.js'
import { crmDeals, type PaymentPage, type PlanInput } from '../../../shared/contracts/crm-deals.js'
import type { PaymentRow } from '../../../shared/contracts/contract-payment.js'
import { useTr } from '../../i18n/use-tr.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const STATUS_COLORS: Record<number, string> = { 0: 'blue', 1: 'orange', 2: 'green', 3: 'red' }

export interface PaymentPanelProps {
  contractId?: string
  customerId?: string
  /** The contract's amount: the plan editor shows what is left to plan. */
  contractAmount?: string
  /** The contract is approved: collections may be recorded. */
  approved?: boolean
  /** Hide the editing buttons (print, detail pages). */
  readOnly?: boolean
}

interface EditRow extends PlanInput {
  key: string
  receivedAmount?: string
}

let keys = 0
const newKey = () => `new-${++keys}`

/**
 * 回款: a contract's (or a customer's) collection plan with periods, due dates, received and unreceived
 * amounts and overdue state; the plan editor (never above the contract amount) and collection records.
 */
export default function PaymentPanel({ contractId, customerId, contractAmount, approved, readOnly }: PaymentPanelProps) {
  const tr = useTr()
  const meta = useMeta()
  const { message } = useFeedback()
  const session = useSession()
  const can = (key: string) => hasPermission(session, key)
  const [page, setPage] = useState<PaymentPage | undefined>()
  const [editing, setEditing] = useState<EditRow[] | null>(null)
  const [receiving, setReceiving] = useState<PaymentRow | null>(null)
  const [busy, setBusy] = useState(false)
  const load = useCallback(() => {
    call(crmDeals.payment, { contractId, customerId, pageSize: 500 }).then(setPage, () => undefined)
  }, [contractId, customerId])
  useEffect(load, [load])

  const planned = useMemo(
    () => (editing ?? []).reduce((s, r) => s.plus(/^\d+(\.\d{1,2})?$/.test(String(r.planAmount ?? '')) ? String(r.planAmount) : 0), new Decimal(0)),
    [editing],
  )
  // What the contract leaves to plan: a new period starts with it (nothing when the contract amount is not known or is planned in full).
  const remaining = contractAmount === undefined ? undefined : Decimal.max(0, new Decimal(contractAmount).minus(planned))
  const statusLabel = (code: number) => meta?.enums.label('CRM_PAYMENT_PLAN_STATUS', code) ?? String(code)

  const startEdit = () =>
    setEditing(
      (page?.datas ?? []).map((r) => ({ key: r.id, id: r.id, planDate: r.planDate, planAmount: r.planAmount, remindDays: r.remindDays, description: r.description ?? '', receivedAmount: r.receivedAmount })),
    )
  const change = (key: string, patch: Partial<EditRow>) => setEditing((rows) => (rows ?? []).map((r) => (r.key === key ? { ...r, ...patch } : r)))
  const savePlans = async () => {
    if (!contractId || !editing) return
    setBusy(true)
    try {
      const saved = await call(crmDeals.savePlans, {
        contractId,
        plans: editing.map(({ id, planDate, planAmount, remindDays, description }) => ({ id, planDate, planAmount, remindDays, description })),
      })
      setPage(saved)
      setEditing(null)
      message.success(tr('回款计划已保存'))
    } catch {
      // shown by the API layer
    } finally {
      setBusy(false)
    }
  }

  const columns = [
    ...(contractId ? [] : [{ title: tr('合同编号'), dataIndex: 'contractNo', width: 120 }, { title: tr('合同名称'), dataIndex: 'contractName', width: 160 }]),
    { title: tr('期数'), dataIndex: 'period', width: 70, render: (v: number) => tr(`第${v}期`) },
    { title: tr('计划回款日期'), dataIndex: 'planDate', width: 120 },
    { title: tr('计划回款金额'), dataIndex: 'planAmount', width: 130, align: 'right' as const },
    { title: tr('已回款金额'), dataIndex: 'receivedAmount', width: 120, align: 'right' as const },
    { title: tr('未回款金额'), dataIndex: 'unreceivedAmount', width: 120, align: 'right' as const },
    {
      title: tr('状态'),
      dataIndex: 'status',
      width: 130,
      render: (v: number, r: PaymentRow) => (
        <Tag color={STATUS_COLORS[v]}>
          {statusLabel(v)}
          {r.overdue ? tr(`（${r.overdueDays}天）`) : ''}
        </Tag>
      ),
    },
    { title: tr('备注'), dataIndex: 'description', ellipsis: true },
    ...(readOnly || !contractId
      ? []
      : [
          {
            title: tr('操作'),
            width: 100,
            render: (_: unknown, r: PaymentRow) =>
              approved && can(PERMISSION.crm.contract.receive) && new Decimal(r.unreceivedAmount).gt(0) ? (
                <Button type="link" size="small" onClick={() => setReceiving(r)}>
                  {tr('登记回款')}
                </Button>
              ) : null,
          },
        ]),
  ]

  const owed = Boolean(page?.datas.length) && new Decimal(page?.unreceivedAmount ?? 0).gt(0)
  return (
    <div className="crm-payment">
      <Space size="large" wrap style={{ marginBottom: 12 }}>
        {contractAmount !== undefined && <Statistic title={tr('合同金额')} value={contractAmount} />}
        <Statistic title={tr('计划回款')} value={page?.planAmount ?? '0.00'} />
        <Statistic title={tr('已回款')} value={page?.receivedAmount ?? '0.00'} valueStyle={{ color: '#3f8600' }} />
        {/* Red only for money planned and not yet collected: before there is a plan nothing is owed. */}
        <Statistic title={tr('未回款')} value={page?.unreceivedAmount ?? '0.00'} valueStyle={owed ? { color: '#cf1322' } : undefined} />
      </Space>
      {!readOnly && contractId && !editing && (can(PERMISSION.crm.contract.add) || can(PERMISSION.crm.contract.modify)) && (
        <div style={{ marginBottom: 8 }}>
          <Button onClick={startEdit}>{tr('编辑回款计划')}</Button>
          {!approved && <Typography.Text type="secondary" style={{ marginLeft: 12 }}>{tr('合同审核通过后才能登记回款')}</Typography.Text>}
        </div>
      )}
      {editing ? (
        <div className="crm-plan-editor">
          <Table<EditRow>
            size="small"
            rowKey="key"
            pagination={false}
            dataSource={editing}
            scroll={{ x: 760 }}
            columns={[
              { title: tr('期数'), width: 70, render: (_: unknown, __: EditRow, i: number) => tr(`第${i + 1}期`) },
              {
                title: tr('计划回款日期'),
                width: 150,
                render: (_: unknown, r: EditRow) => (
                  <DateInput aria-label={tr('计划回款日期')} value={r.planDate ? dayjs(r.planDate) : null} onChange={(d) => change(r.key, { planDate: d ? d.format('YYYY-MM-DD') : '' })} />
                ),
              },
              {
                title: tr('计划回款金额'),
                width: 160,
                render: (_: unknown, r: EditRow) => (
                  <InputNumber<string>
                    aria-label={tr('计划回款金额')}
                    stringMode
                    min="0.01"
                    precision={2}
                    style={{ width: '100%' }}
                    value={r.planAmount || null}
                    onChange={(v) => change(r.key, { planAmount: v ?? '' })}
                  />
                ),
              },
              { title: tr('已回款'), width: 100, dataIndex: 'receivedAmount', render: (v?: string) => v ?? '0.00' },
              {
                title: tr('提前提醒(天)'),
                width: 110,
                render: (_: unknown, r: EditRow) => (
                  <InputNumber min={0} max={365} precision={0} value={r.remindDays ?? null} onChange={(v) => change(r.key, { remindDays: v ?? null })} />
                ),
              },
              { title: tr('备注'), render: (_: unknown, r: EditRow) => <Input maxLength={200} value={r.description} onChange={(e) => change(r.key, { description: e.target.value })} /> },
              {
                title: tr('操作'),
                width: 70,
                render: (_: unknown, r: EditRow) => (
                  <Button type="link" size="small" danger disabled={Boolean(r.receivedAmount && new Decimal(r.receivedAmount).gt(0))} onClick={() => setEditing((rows) => (rows ?? []).filter((x) => x.key !== r.key))}>
                    {tr('删除')}
                  </Button>
                ),
              },
            ]}
          />
          {contractAmount !== undefined && planned.gt(contractAmount) && (
            <Alert type="error" showIcon style={{ marginTop: 8 }} message={tr(`回款计划总金额（${planned.toFixed(2)}）不能超过合同金额（${contractAmount}）！`)} />
          )}
          <Space style={{ marginTop: 8 }}>
            <Button onClick={() => setEditing((rows) => [...(rows ?? []), { key: newKey(), planDate: '', planAmount: remaining?.gt(0) ? remaining.toFixed(2) : '' }])}>
              {tr('新增一期')}
            </Button>
            <Typography.Text type="secondary">
              {tr(`已计划 ${planned.toFixed(2)}`)}
              {remaining !== undefined && tr(`，剩余可计划 ${remaining.toFixed(2)}`)}
            </Typography.Text>
            <Button onClick={() => setEditing(null)}>{tr('取消')}</Button>
            <Button type="primary" loading={busy} onClick={savePlans}>
              {tr('保存回款计划')}
            </Button>
          </Space>
        </div>
      ) : (
        <Table<PaymentRow>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={page?.datas ?? []}
          columns={columns}
          scroll={{ x: 900 }}
          expandable={{
            rowExpandable: (r) => r.records.length > 0,
            expandedRowRender: (r) => (
              <Table
                size="small"
                rowKey="id"
                pagination={false}
                dataSource={r.records}
                columns={[
                  { title: tr('回款日期'), dataIndex: 'receiveDate', width: 120 },
                  { title: tr('回款金额'), dataIndex: 'amount', width: 120, align: 'right' as const },
                  { title: tr('付款方式'), dataIndex: 'payMethod', width: 120 },
                  { title: tr('备注'), dataIndex: 'description' },
                  { title: tr('登记人'), dataIndex: 'createBy', width: 100 },
                  { title: tr('登记时间'), dataIndex: 'createTime', width: 170 },
                  ...(readOnly || !can(PERMISSION.crm.contract.receive)
                    ? []
                    : [
                        {
                          title: tr('操作'),
                          width: 80,
                          render: (_: unknown, rec: { id: string }) => (
                            <ConfirmLink title={tr('确定删除这条回款记录？')} onConfirm={() => call(crmDeals.removeReceive, { id: rec.id }).then(load, () => undefined)}>
                              {tr('删除')}
                            </ConfirmLink>
                          ),
                        },
                      ]),
                ]}
              />
            ),
          }}
        />
      )}
      {receiving && <ReceiveDialog plan={receiving} onClose={() => setReceiving(null)} onDone={load} />}
    </div>
  )
}

function ReceiveDialog({ plan, onClose, onDone }: { plan: PaymentRow; onClose: () => void; onDone: () => void }) {
  const tr = useTr()
  const { message } = useFeedback()
  const [form] = Form.useForm<{ amount: string; receiveDate: dayjs.Dayjs; payMethod?: string; description?: string }>()
  const [busy, setBusy] = useState(false)
  const submit = async () => {
    const v = await form.validateFields()
    setBusy(true)
    try {
      await call(crmDeals.receive, { planId: plan.id, amount: v.amount, receiveDate: v.receiveDate.format('YYYY-MM-DD'), payMethod: v.payMethod, description: v.description })
      message.success(tr('回款已登记'))
      onDone()
      onClose()
    } catch {
      // shown by the API layer
    } finally {
      setBusy(false)
    }
  }
  return (
    <GuardedModal open title={tr(`登记回款：第${plan.period}期（未回款 ${plan.unreceivedAmount}）`)} onCancel={onClose} onOk={submit} confirmLoading={busy} okText={tr('确定')} cancelText={tr('取消')} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ amount: plan.unreceivedAmount, receiveDate: dayjs() }}>
        <Form.Item name="amount" label={tr('回款金额')} rules={[{ required: true, message: tr('回款金额不能为空') }]}>
          <InputNumber<string> stringMode min="0.01" max={plan.unreceivedAmount} precision={2} style={{ width: '100%' }} aria-label={tr('回款金额')} />
        </Form.Item>
        <Form.Item name="receiveDate" label={tr('回款日期')} rules={[{ required: true, message: tr('回款日期不能为空') }]}>
          <DateInput style={{ width: '100%' }} aria-label={tr('回款日期')} />
        </Form.Item>
        <Form.Item name="payMethod" label={tr('付款方式')}>
          <Input maxLength={50} placeholder={tr('如：银行转账、支票、现金')} />
        </Form.Item>
        <Form.Item name="description" label={tr('备注')}>
          <Input.TextArea maxLength={200} rows={2} />
        </Form.Item>
      </Form>
    </GuardedModal>
  )
}
