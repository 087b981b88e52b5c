import { useEffect, useState } from 'react'
import { useLocation, useNavigate, useParams } from 'react-router-dom'
import { Alert, Button, Card, Descriptions, Empty, Form, Input, InputNumber, Select, Space, Spin, Table } from 'antd'
import DateInput from '../../components/DateInput.js'
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons'
import type { ColumnType } from 'antd/es/table'
import Decimal from 'decimal.js'
import dayjs, { type Dayjs } from 'dayjs'
import { call } from '../../api/call.js'
import { useCall } from '../../app/use-call.js'
import { crmReports } from '../../../shared/contracts/crm-reports.js'
import { useMeta } from '../../api/meta.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import { enumOptions } from '../../runtime/query-params.js'
import { closeTab } from '../../app/tab-store.js'
import { refreshReports, useDoneMessage } from './done-message.js'
import ReceiptUpload from './ReceiptUpload.js'
import { AMOUNT, linesTotal } from './claim-lines.js'
import { REIMBURSE_CATEGORY_ENUM, type Attachment } from './report-api.js'
import { useTr } from '../../i18n/use-tr.js'

interface EditLine {
  key: number
  category?: number
  amount?: string | null
  occurDate?: Dayjs | null
  description?: string
}

let keys = 0
const blank = (): EditLine => ({ key: ++keys, occurDate: dayjs() })

/** 新增报销单 / 修改报销单: reason, lines (category, amount, date, note) with a live exact total, receipts, the approver found for me. */
export default function ReimburseFormPage({ mode, listPath }: { mode: 'add' | 'modify'; listPath: string }) {
  return (
    <FeedbackProvider>
      <ClaimForm mode={mode} listPath={listPath} />
    </FeedbackProvider>
  )
}

function ClaimForm({ mode, listPath }: { mode: 'add' | 'modify'; listPath: string }) {
  const tr = useTr()
  const { id = '' } = useParams<{ id: string }>()
  const meta = useMeta()
  const { message } = useFeedback()
  const navigate = useNavigate()
  const done = useDoneMessage()
  const location = useLocation()
  const [form] = Form.useForm<{ title: string; description?: string; attachments?: Attachment[] }>()
  const [lines, setLines] = useState<EditLine[]>([blank()])
  const [busy, setBusy] = useState(false)
  const { data: manager, error: noManager } = useCall(crmReports.claimManager, undefined, { hideError: true, swr: { revalidateOnFocus: false } })
  const { data: existing, error } = useCall(mode === 'modify' && crmReports.claimDetail, { id }, { swr: { revalidateOnFocus: false } })
  useEffect(() => {
    if (!existing) return
    form.setFieldsValue({ title: existing.title, description: existing.description ?? '', attachments: existing.attachments ?? [] })
    setLines((existing.details ?? []).map((l) => ({ key: ++keys, category: l.category, amount: l.amount, occurDate: l.occurDate ? dayjs(l.occurDate) : null, description: l.description ?? '' })))
  }, [existing, form])
  if (mode === 'modify' && error) return <Empty description={tr('报销单不存在或无权修改')} />
  if (mode === 'modify' && !existing) return <Spin />
  const edit = (key: number, patch: Partial<EditLine>) => setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)))
  const columns: ColumnType<EditLine>[] = [
    { key: '__seq', title: tr('序号'), width: 60, align: 'center', render: (_v, _r, i) => i + 1 },
    {
      key: 'category',
      title: tr('费用类别'),
      width: 160,
      render: (_v, l, i) => (
        <Select aria-label={tr(`第${i + 1}行费用类别`)} style={{ width: '100%' }} value={l.category} options={meta ? enumOptions(REIMBURSE_CATEGORY_ENUM, meta.enums) : []} onChange={(v) => edit(l.key, { category: v })} placeholder={tr('请选择')} />
      ),
    },
    {
      key: 'amount',
      title: tr('金额(元)'),
      width: 160,
      render: (_v, l, i) => (
        <InputNumber<string>
          aria-label={tr(`第${i + 1}行金额`)}
          stringMode
          min="0.01"
          precision={2}
          style={{ width: '100%' }}
          value={l.amount ?? null}
          onChange={(v) => edit(l.key, { amount: v })}
        />
      ),
    },
    {
      key: 'occurDate',
      title: tr('发生日期'),
      width: 160,
      render: (_v, l, i) => <DateInput aria-label={tr(`第${i + 1}行发生日期`)} value={l.occurDate ?? null} onChange={(v) => edit(l.key, { occurDate: v })} />,
    },
    {
      key: 'description',
      title: tr('说明'),
      width: 260,
      render: (_v, l, i) => <Input aria-label={tr(`第${i + 1}行说明`)} maxLength={200} value={l.description} onChange={(e) => edit(l.key, { description: e.target.value })} />,
    },
    {
      key: '__actions',
      title: tr('操作'),
      width: 70,
      align: 'center',
      render: (_v, l) => (
        <Button type="link" danger size="small" aria-label={tr('删除明细')} icon={<DeleteOutlined aria-hidden />} disabled={lines.length === 1} onClick={() => setLines((ls) => ls.filter((x) => x.key !== l.key))} />
      ),
    },
  ]
  const submit = async () => {
    let header
    try {
      header = await form.validateFields()
    } catch {
      return
    }
    for (const [i, l] of lines.entries()) {
      if (!l.category) return void message.error(tr(`第${i + 1}行：费用类别不能为空`))
      if (!l.amount || !AMOUNT.test(l.amount) || new Decimal(l.amount).lte(0)) return void message.error(tr(`第${i + 1}行：金额必须大于0，最多2位小数`))
      if (!l.occurDate) return void message.error(tr(`第${i + 1}行：发生日期不能为空`))
    }
    const body = {
      ...header,
      attachments: header.attachments ?? [],
      details: lines.map((l) => ({ category: l.category, amount: l.amount, occurDate: l.occurDate!.format('YYYY-MM-DD'), description: l.description ?? '' })),
    }
    setBusy(true)
    try {
      if (mode === 'add') await call(crmReports.addClaim, body)
      else await call(crmReports.updateClaim, { ...body, id })
      done(mode === 'add' ? tr('提交成功，等待审批！') : tr('修改成功，已重新提交审批！'))
      refreshReports()
      navigate(listPath)
      closeTab(location.pathname)
    } catch {
      // Shown by the api layer.
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card size="small" variant="borderless" title={mode === 'add' ? tr('新增报销单') : tr(`修改报销单 ${existing?.code ?? ''}`)}>
      {existing?.refuseReason && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={tr(`审批被拒绝：${existing.refuseReason}（修改后重新提交审批）`)} />}
      {noManager && <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={tr('未找到审批人：请联系管理员为您所在的部门（或上级部门）设置负责人')} />}
      <Descriptions size="small" column={3} style={{ marginBottom: 12 }}>
        <Descriptions.Item label={tr('所属部门')}>{manager?.deptName ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={tr('审批人')}>{manager?.managerName ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={tr('报销总金额')}>
          <strong>{`¥ ${linesTotal(lines)}`}</strong>
        </Descriptions.Item>
      </Descriptions>
      <Form form={form} layout="vertical" style={{ maxWidth: 1000 }}>
        <Form.Item name="title" label={tr('报销事由')} rules={[{ required: true, whitespace: true, message: tr('报销事由不能为空') }]}>
          <Input aria-label={tr('报销事由')} maxLength={200} placeholder={tr('如：11月华东区客户拜访差旅')} />
        </Form.Item>
        <Form.Item label={tr('报销明细')} required>
          <Table<EditLine> rowKey="key" size="small" bordered columns={columns} dataSource={lines} pagination={false} scroll={{ x: 'max-content' }} />
          <Button type="dashed" icon={<PlusOutlined aria-hidden />} style={{ marginTop: 8 }} onClick={() => setLines((ls) => [...ls, blank()])} disabled={lines.length >= 200}>
            {tr('添加明细')}
          </Button>
        </Form.Item>
        <Form.Item name="attachments" label={tr('票据附件')}>
          <ReceiptUpload />
        </Form.Item>
        <Form.Item name="description" label={tr('备注')}>
          <Input.TextArea aria-label={tr('备注')} maxLength={200} rows={2} />
        </Form.Item>
      </Form>
      <Space>
        <Button type="primary" loading={busy} disabled={!!noManager} onClick={() => void submit()}>
          {tr('提交审批')}
        </Button>
        <Button onClick={() => navigate(listPath)}>{tr('返回')}</Button>
      </Space>
    </Card>
  )
}
