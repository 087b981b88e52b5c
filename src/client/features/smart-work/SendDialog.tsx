import { useState } from 'react'
import { Form, Modal } from 'antd'
import PickerInput from '../../runtime/picker/PickerInput.js'
import { useFeedback } from '../../components/feedback.js'
import { useTr } from '../../i18n/use-tr.js'

/** 发送: choose one or more colleagues (the user picker); each receives a copy of their own. */
export default function SendDialog({ title, send, onClose }: { title: string; send: (userIds: string[]) => Promise<unknown>; onClose: () => void }) {
  const tr = useTr()
  const { message } = useFeedback()
  const [userIds, setUserIds] = useState<string[]>([])
  const [busy, setBusy] = useState(false)
  const submit = async () => {
    if (!userIds.length) {
      message.warning(tr('请选择接收人'))
      return
    }
    setBusy(true)
    try {
      await send(userIds)
      message.success(tr('发送成功'))
      onClose()
    } catch {
      // shown by the API layer
    } finally {
      setBusy(false)
    }
  }
  return (
    <Modal open title={title} onCancel={onClose} onOk={submit} confirmLoading={busy} okText={tr('发送')} cancelText={tr('取消')} destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label={tr('接收人')} required>
          <PickerInput kind="user" multiple value={userIds} onChange={(v) => setUserIds(Array.isArray(v) ? v : v ? [v] : [])} aria-label={tr('接收人')} />
        </Form.Item>
      </Form>
    </Modal>
  )
}
