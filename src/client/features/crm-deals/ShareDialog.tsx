import { useState } from 'react'
import { Form, Modal } from 'antd'
import PickerInput from '../../components/PickerInput.js'
import { useFeedback } from '../../runtime/feedback.js'
import { crmApi } from './crm-api.js'

/** 分享纪念日: choose colleagues (the user picker); the list replaces the previous one. */
export default function ShareDialog({ id, title, shared, onDone, onClose }: { id: string; title: string; shared: string[]; onDone: () => void; onClose: () => void }) {
  const { message } = useFeedback()
  const [userIds, setUserIds] = useState<string[]>(shared)
  const [busy, setBusy] = useState(false)
  const submit = async () => {
    setBusy(true)
    try {
      await crmApi.share(id, userIds)
      message.success('分享成功')
      onDone()
      onClose()
    } catch {
      // shown by the API layer
    } finally {
      setBusy(false)
    }
  }
  return (
    <Modal open title={`分享纪念日：${title}`} onCancel={onClose} onOk={submit} confirmLoading={busy} okText="确定" cancelText="取消" destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label="分享给同事">
          <PickerInput kind="user" multiple value={userIds} onChange={(v) => setUserIds(Array.isArray(v) ? v : v ? [v] : [])} aria-label="分享给同事" />
        </Form.Item>
      </Form>
    </Modal>
  )
}
