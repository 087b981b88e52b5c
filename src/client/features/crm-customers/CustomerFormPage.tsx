import { Card, Spin } from 'antd'
import { useMeta } from '../../api/meta.js'
import { FeedbackProvider } from '../../components/feedback.js'
import CustomerForm from './CustomerForm.js'

/** 新增客户 / 修改客户 page (desktop, or the H5 variant with `compact`). */
export default function CustomerFormPage({ id, compact }: { id?: string; compact?: boolean }) {
  const meta = useMeta()
  return (
    <FeedbackProvider>
      <Card bordered={!compact} styles={{ body: { padding: compact ? 0 : undefined } }}>{meta ? <CustomerForm meta={meta} id={id} compact={compact} /> : <Spin />}</Card>
    </FeedbackProvider>
  )
}
