import { useState } from 'react'
import { Form } from 'antd'
import GuardedModal from '../../runtime/GuardedModal.js'
import PickerInput from '../../runtime/picker/PickerInput.js'
import { useFeedback } from '../../components/feedback.js'
import { call } from '../../api/call.js'
import { crmMemorials } from '../../../shared/contracts/crm-deals.js'
import { useTr } from '../../i18n/use-tr.js'

/** 分享纪念日: choose colleagues (the user picker); the list replaces the previous one. */
export default function ShareDialog({ id, title, shared, onDone, onClose }: { id: string; title: string; shared: string[]; onDone: () => void; onClose: () => void }) {
  const tr = useTr()
  const { message } = useFeedback()
  const [userIds, setUserIds] = useState<string[]>(shared)
  const [busy, setBusy] = useState(false)
  const submit = async () => {
    setBusy(true)
    try {
      await call(crmMemorials.share, { id, userIds })
      message.success(tr('分享成功'))
      onDone()
      onClose()
    } catch {
      // shown by the API layer
    } finally {
      setBusy(false)
    }
  }
  return (
    <GuardedModal open title={tr(`分享纪念日：${title}`)} onCancel={onClose} onOk={submit} confirmLoading={busy} okText={tr('确定')} cancelText={tr('取消')} destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label={tr('分享给同事')}>
          <PickerInput kind="user" multiple value={userIds} onChange={(v) => setUserIds(Array.isArray(v) ? v : v ? [v] : [])} aria-label={tr('分享给同事')} />
        </Form.Item>
      </Form>
    </GuardedModal>
  )
}
