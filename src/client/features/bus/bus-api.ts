import type { ScopedMutator } from 'swr'
import { call } from '../../api/call.js'
import { isCallKey } from '../../app/use-call.js'
import { busCalls, type BusMessage, type BusQuery } from '../../../shared/contracts/bus.js'
import type { Page } from '../../../shared/contracts/call.js'

/** The bell's 消息 tab: the newest 20 messages sent to the caller. */
export const BELL_MESSAGES: BusQuery = { pageIndex: 1, pageSize: 20, personal: true }

/** SWR keys of bus lists start with this, so a message arriving refreshes every one. */
export const BUS_MESSAGES_KEY = 'bus-messages'
export const busMessagesKey = (token: string | null, query: BusQuery) => [BUS_MESSAGES_KEY, token, JSON.stringify(query)] as const

/** `GET /message/bus/query` (errors hidden: 001 §7). */
export function queryBusMessages(query: BusQuery): Promise<Page<BusMessage>> {
  return call(busCalls.query, query, { hideError: true })
}

export function refreshBusMessages(mutate: ScopedMutator): void {
  void mutate((key) => (Array.isArray(key) && key[0] === BUS_MESSAGES_KEY) || isCallKey(key, busCalls.query.path))
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
