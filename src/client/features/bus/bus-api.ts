import type { ScopedMutator } from 'swr'
import { isCallKey } from '../../app/use-call.js'
import { busCalls, type BusMessage, type BusQuery } from '../../../shared/contracts/bus.js'

/** The bell's 消息 tab: the newest 20 messages sent to the caller. */
export const BELL_MESSAGES: BusQuery = { pageIndex: 1, pageSize: 20, personal: true }

/** A message arriving reloads every read of the bus list (the bell's, 消息中心's). */
export function refreshBusMessages(mutate: ScopedMutator): void {
  void mutate((key) => isCallKey(key, busCalls.query.path))
}

/** What a message shows in a list: its data's title or text, else its kind. */
export function messageText(message: BusMessage): string {
  const data = message.data as { title?: unknown; text?: unknown } | null
  if (data && typeof data.title === 'string' && data.title) return data.title
  if (data && typeof data.text === 'string' && data.text) return data.text
  return message.bizType
}

/** Where a message leads, when its data says. */
export function messageLink(message: BusMessage): string | undefined {
  const data = message.data as { jumpUrl?: unknown } | null
  return data && typeof data.jumpUrl === 'string' && data.jumpUrl.startsWith('/') ? data.jumpUrl : undefined
}
