import { useEffect, useState } from 'react'
import { Form, Input } from 'antd'
import GuardedModal from '../GuardedModal.js'
import { useTr } from '../../i18n/use-tr.js'

export interface RefuseDialogProps {
  open: boolean
  onCancel: () => void
  /** Refuses with the reason; the dialog stays open (and shows nothing more) when this throws. */
  onConfirm: (reason: string) => Promise<void>
}

/** 审核拒绝: the reason is required (请输入拒绝理由), at most 200 characters as the column. */
export default function RefuseDialog({ open, onCancel, onConfirm }: RefuseDialogProps) {
  const tr = useTr()
  const [form] = Form.useForm<{ refuseReason: string }>()
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    if (open) form.resetFields()
  }, [open, form])
  const ok = async () => {
    let reason: string
    try {
      reason = (await form.validateFields()).refuseReason.trim()
    } catch {
      return
    }
    setBusy(true)
    try {
      await onConfirm(reason)
    } catch {
      // The api layer has shown the server's message.
    } finally {
      setBusy(false)
    }
  }
  return (
    <GuardedModal open={open} title={tr('审核拒绝')} okText={tr('确定')} cancelText={tr('取消')} confirmLoading={busy} onOk={() => void ok()} onCancel={onCancel} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="refuseReason"
          label={tr('拒绝理由')}
          rules={[{ required: true, whitespace: true, message: tr('请输入拒绝理由') }, { max: 200, message: tr('拒绝理由最多允许输入200个字符') }]}
        >
          <Input.TextArea aria-label={tr('拒绝理由')} autoSize={{ minRows: 3, maxRows: 6 }} placeholder={tr('请输入拒绝理由')} />
        </Form.Item>
      </Form>
    </GuardedModal>
  )
}
