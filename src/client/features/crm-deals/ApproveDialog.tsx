import { useState } from 'react'
import { Form, Input, Radio } from 'antd'
import GuardedModal from '../../runtime/GuardedModal.js'
import { useFeedback } from '../../components/feedback.js'
import { call } from '../../api/call.js'
import { crmDeals } from '../../../shared/contracts/crm-deals.js'
import { useTr } from '../../i18n/use-tr.js'

export interface ApproveDialogProps {
  kind: 'business' | 'contract'
  id: string
  title: string
  onDone: () => void
  onClose: () => void
}

/** 审核 of an opportunity or a contract: pass, or refuse with a reason (the server checks both). */
export default function ApproveDialog({ kind, id, title, onDone, onClose }: ApproveDialogProps) {
  const tr = useTr()
  const { message } = useFeedback()
  const [status, setStatus] = useState<3 | 6>(3)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const submit = async () => {
    if (status === 6 && !reason.trim()) {
      message.error(tr('请输入拒绝理由'))
      return
    }
    setBusy(true)
    try {
      await call(kind === 'business' ? crmDeals.approveBusiness : crmDeals.approveContract, { id, status, refuseReason: reason.trim() || undefined })
      message.success(status === 3 ? tr('审核通过') : tr('已审核拒绝'))
      onDone()
      onClose()
    } catch {
      // The API layer shows the server's message.
    } finally {
      setBusy(false)
    }
  }
  return (
    <GuardedModal open title={tr(`审核${title}`)} onCancel={onClose} onOk={submit} confirmLoading={busy} okText={tr('确定')} cancelText={tr('取消')} destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label={tr('审核结果')}>
          <Radio.Group value={status} onChange={(e) => setStatus(e.target.value as 3 | 6)}>
            <Radio value={3}>{tr('通过')}</Radio>
            <Radio value={6}>{tr('拒绝')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item label={status === 6 ? tr('拒绝理由') : tr('审核意见')} required={status === 6}>
          <Input.TextArea rows={3} maxLength={200} showCount value={reason} onChange={(e) => setReason(e.target.value)} aria-label={tr('审核意见')} />
        </Form.Item>
      </Form>
    </GuardedModal>
  )
}
