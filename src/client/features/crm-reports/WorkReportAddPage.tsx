import { useState } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { Button, Card, Form, Input, Space } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import PickerInput from '../../runtime/picker/PickerInput.js'
import { call } from '../../api/call.js'
import { crmReports } from '../../../shared/contracts/crm-reports.js'
import { useSession } from '../../app/session.js'
import { FeedbackProvider } from '../../components/feedback.js'
import { closeTab } from '../../app/tab-store.js'
import { refreshReports, useDoneMessage } from './done-message.js'
import StatisPanel from './StatisPanel.js'
import { REPORT_KIND, WEEKLY, type ReportType } from './report-api.js'
import { useTr } from '../../i18n/use-tr.js'
import DateInput from '../../components/DateInput.js'

interface Values {
  period: Dayjs
  content: string
  plan?: string
  question?: string
  recipientIds?: string[]
}

/** 写周报 / 写月报: the period (a week or a month), work done, next period's plan, problems, recipients; the period's own figures beside. */
export default function WorkReportAddPage({ type, listPath }: { type: ReportType; listPath: string }) {
  return (
    <FeedbackProvider>
      <AddForm type={type} listPath={listPath} />
    </FeedbackProvider>
  )
}

function AddForm({ type, listPath }: { type: ReportType; listPath: string }) {
  const tr = useTr()
  const kind = REPORT_KIND[type]
  const navigate = useNavigate()
  const done = useDoneMessage()
  const location = useLocation()
  const [form] = Form.useForm<Values>()
  const [busy, setBusy] = useState(false)
  const me = useSession().user?.id
  const period = Form.useWatch('period', form) as Dayjs | undefined
  const save = async (v: Values) => {
    setBusy(true)
    try {
      await call(crmReports.addWorkReport, {
        reportType: type,
        startDate: v.period.format('YYYY-MM-DD'),
        content: v.content,
        plan: v.plan ?? '',
        question: v.question ?? '',
        recipientIds: v.recipientIds ?? [],
      })
      done(tr('提交成功！'))
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
    <div className="crm-work-report-add">
      <Card size="small" variant="borderless" title={tr(`写${kind.name}`)} style={{ marginBottom: 12 }}>
        <Form<Values> form={form} layout="vertical" initialValues={{ period: dayjs() }} onFinish={(v) => void save(v)} style={{ maxWidth: 960 }}>
          <Form.Item name="period" label={tr('报告周期')} rules={[{ required: true, message: tr('报告周期不能为空') }]}>
            <DateInput aria-label={tr('报告周期')} picker={type === WEEKLY ? 'week' : 'month'} allowClear={false} />
          </Form.Item>
          <Form.Item name="content" label={tr(`${kind.period}工作内容`)} rules={[{ required: true, whitespace: true, message: tr('工作内容不能为空') }]}>
            <Input.TextArea aria-label={tr('工作内容')} rows={6} maxLength={5000} showCount placeholder={tr('客户拜访、商机推进、签约与回款等')} />
          </Form.Item>
          <Form.Item name="plan" label={tr(`${kind.next}工作计划`)}>
            <Input.TextArea aria-label={tr('工作计划')} rows={4} maxLength={5000} showCount />
          </Form.Item>
          <Form.Item name="question" label={tr('遇到的问题')}>
            <Input.TextArea aria-label={tr('遇到的问题')} rows={3} maxLength={2000} showCount />
          </Form.Item>
          <Form.Item name="recipientIds" label={tr('发送给')}>
            <PickerInput kind="user" multiple aria-label={tr('发送给')} placeholder={tr('请选择接收人')} />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={busy}>
              {tr('提交')}
            </Button>
            <Button onClick={() => navigate(listPath)}>{tr('返回')}</Button>
          </Space>
        </Form>
      </Card>
      {period && <StatisPanel key={period.format('YYYY-MM-DD')} type={type} date={period.format('YYYY-MM-DD')} userId={me} title={tr(`我的${kind.name}数据（参考）`)} />}
    </div>
  )
}
