import { useEffect, useRef } from 'react'
import { call } from '../../api/call.js'
import { webhook } from '../../../shared/contracts/webhooks.js'
import type { EntityRow } from '../../runtime/entity-api.js'
import { useFeedback } from '../../components/feedback.js'
import { tr } from '../../i18n/use-tr.js'

export interface ReplayDeliveryProps {
  delivery: EntityRow
  reload: () => void
  onDone: () => void
}

/** 重新投递 of one delivery: one call, a message, the list reloaded (the new delivery is its first row). Renders nothing. */
export default function ReplayDelivery({ delivery, reload, onDone }: ReplayDeliveryProps) {
  const { message } = useFeedback()
  const sent = useRef(false)
  useEffect(() => {
    if (sent.current) return
    sent.current = true
    call(webhook.replay, { id: String(delivery.id) })
      .then(() => {
        void message.success(tr('已重新投递'))
        reload()
      })
      .catch(() => {})
      .finally(onDone)
  }, [delivery.id, message, reload, onDone])
  return null
}
