import { useEffect, useRef } from 'react'
import type { EntityRow } from '../../runtime/entity-api.js'
import { useFeedback } from '../../components/feedback.js'
import { truthy } from './use-load.js'
import { useTr } from '../../i18n/use-tr.js'
import { system } from '../../../shared/contracts/system.js'
import { call } from '../../api/call.js'

export interface UnlockUserProps {
  user: EntityRow
  /** Fetches the list again (the row's 锁定状态 changes). */
  reload: () => void
  onClose: () => void
}

/**
 * 解锁: asks 确定解锁该用户？ and calls `/system/user/unlock`; a user that is not locked only gets the
 * message 该用户未锁定. Renders nothing itself: the confirm comes from the page's modal holder.
 */
export default function UnlockUser({ user, reload, onClose }: UnlockUserProps) {
  const tr = useTr()
  const { message, modal } = useFeedback()
  // Once per opening, also under StrictMode's second effect run (refs survive it).
  const asked = useRef(false)

  useEffect(() => {
    if (asked.current) return
    asked.current = true
    if (!truthy(user.lockStatus)) {
      message.warning(tr('该用户未锁定'))
      onClose()
      return
    }
    modal.confirm({
      title: tr('提示'),
      content: tr('确定解锁该用户？'),
      okText: tr('确定'),
      cancelText: tr('取消'),
      onOk: async () => {
        try {
          await call(system.unlockUser, { id: user.id })
          message.success(tr('解锁成功！'))
          reload()
        } catch {
          // The api layer has shown the server's message.
        }
      },
      afterClose: onClose,
    })
  }, [user, message, modal, reload, onClose])

  return null
}
