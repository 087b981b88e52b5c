import { useState } from 'react'
import { useFeedback } from '../../components/feedback.js'
import { useTr } from '../../i18n/use-tr.js'

/**
 * What the grant dialogs share: open until saved or cancelled, a spinner on 保存 while the call
 * runs, the success message, and the list told to drop the dialog after its closing animation.
 * Spread `modalProps` on the antd Modal.
 */
export function useSaveDialog(save: () => Promise<unknown>, onClose: () => void, success?: string) {
  const tr = useTr()
  const { message } = useFeedback()
  const [open, setOpen] = useState(true)
  const [saving, setSaving] = useState(false)
  const submit = async () => {
    setSaving(true)
    try {
      await save()
      message.success(success ?? tr('授权成功！'))
      setOpen(false)
    } catch {
      // The api layer has shown the server's message.
    } finally {
      setSaving(false)
    }
  }
  return {
    modalProps: {
      open,
      maskClosable: false,
      okText: tr('保存'),
      cancelText: tr('取消'),
      confirmLoading: saving,
      onOk: () => void submit(),
      onCancel: () => setOpen(false),
      afterClose: onClose,
    },
  }
}
