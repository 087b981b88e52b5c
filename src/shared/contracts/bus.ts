import { defineCall, type Page, type PageParams } from './call.js'

/**
 * The message bus on the wire (server: src/server/realtime, client: src/client/features/bus). Every
 * recorded message travels as a BusMessage under the event named by its bizType.
 */
export const BusEvent = {
  /** A notice was published: the bell reloads its notices at once. */
  sysNotice: 'sysNotice',
  /** A user's first socket connected (sent to the other users of the tenant). */
  userOnline: 'userOnline',
  /** A user's last socket disconnected. */
  userOffline: 'userOffline',
  /** A message for one user (e.g. a spreadsheet or file sent to them). */
  message: 'message',
  /** A to-do for one user. */
  todo: 'todo',
} as const
export type BusEvent = (typeof BusEvent)[keyof typeof BusEvent]

/** What a bizType (the event name) may be. */
export const BIZ_TYPE_PATTERN = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/

/** Socket.io path of the bus, under the API prefix. */
export const BUS_SOCKET_PATH = '/cloud-api/bus'

/** One recorded bus message (`GET /message/bus/query` rows and socket payloads). */
export interface BusMessage {
  id: string
  bizType: string
  /** The addressee; null for a message to the whole tenant. */
  userId: string | null
  data: unknown
  createTime: string
}

/** `sysNotice` data: the published notice. */
export interface SysNoticeData {
  id: string
  title: string
  publishTime: string | null
}

/** `userOnline` / `userOffline` payload: who, from which address, when. */
export interface PresenceEvent {
  userId: string
  name: string
  username: string
  ip: string
  time: string
}

/** The list conditions of `GET /message/bus/query`. */
export type BusQuery = PageParams & {
  bizType?: string
  /** Only the messages addressed to the caller. */
  personal?: boolean
}

export const busCalls = {
  /** The caller's recent messages (to the whole tenant and to them), newest first. */
  query: defineCall<BusQuery, Page<BusMessage>>('GET', '/message/bus/query'),
}
