import { createHash } from 'node:crypto'
import * as xss from 'xss'
import type { Db } from '../db/dialect.js'
import type { Databases } from '../db/databases.js'
import { BusEvent, type SysNoticeData } from '../../shared/contracts/bus.js'
import { auditColumns } from './audit-columns.js'
import { now } from './clock.js'
import { handleOf } from './db-tx.js'
import { invalid } from './errors.js'

/**
 * System notices (sys_notice) as every layer sends them: the HTML they may hold, and publishing one to its
 * readers' bells. The notice page's routes are modules/system/notices.ts; the CRM reminders and the file box
 * send personal notices from here.
 */

/** What sending a notice needs of the app: whose database a handle is, and the realtime bus. */
export interface NoticeServices {
  databases: Databases
  bus: {
    publishToUser(tenantId: string, userId: string, event: string, payload: unknown, options?: NoticeDelivery): Promise<void>
    publishToTenant(tenantId: string, event: string, payload: unknown, options?: NoticeDelivery): Promise<void>
  }
}

/** Sent once `trx` commits, in the name of `by`. */
interface NoticeDelivery {
  trx?: Db
  by?: { userId: string; name: string }
}

/** A notice flag as stored (boolean, or 1/0 and their text forms). */
export const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true'

/** The `readed` condition of the caller's notices and todos: absent, or a flag (anything else is refused). */
export function readedFlag(v: unknown): boolean | undefined {
  if (v === undefined || v === null || v === '') return undefined
  if ([true, 'true', '1', 1].includes(v as never)) return true
  if ([false, 'false', '0', 0].includes(v as never)) return false
  throw invalid('是否已读取值不正确', 'readed')
}

/* ---------- HTML sanitising (notice content comes from a rich text editor) ---------- */

const COMMON = ['style', 'class', 'title']
const TAGS: Record<string, string[]> = {
  a: ['href', 'target', 'rel', 'name'],
  img: ['src', 'alt', 'width', 'height'],
  video: ['src', 'controls', 'width', 'height', 'poster', 'preload'],
  source: ['src', 'type'],
  table: ['border', 'cellpadding', 'cellspacing', 'width', 'align'],
  td: ['colspan', 'rowspan', 'width', 'height', 'align', 'valign'],
  th: ['colspan', 'rowspan', 'width', 'height', 'align', 'valign'],
  col: ['span', 'width'],
  colgroup: ['span', 'width'],
  font: ['color', 'size', 'face'],
  ol: ['start', 'type'],
  p: ['align'],
  div: ['align'],
}
for (const tag of [
  'p', 'div', 'span', 'br', 'hr', 'b', 'strong', 'i', 'em', 'u', 's', 'strike', 'del', 'ins', 'sub', 'sup', 'small', 'mark',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'colgroup', 'col', 'a', 'img', 'video', 'source',
  'figure', 'figcaption', 'font',
]) {
  TAGS[tag] = [...new Set([...(TAGS[tag] ?? []), ...COMMON])]
}

const filter = new xss.FilterXSS({
  whiteList: TAGS,
  // Tags outside the list go, their text stays; script-like tags go with their content.
  stripIgnoreTag: true,
  stripIgnoreTagBody: ['script', 'style', 'iframe', 'frame', 'object', 'embed', 'noscript', 'template'],
  allowCommentTag: false,
})

/**
 * Rich text as it may be stored and shown to every user: allow-listed tags and attributes only, no
 * event handlers, no `javascript:` URLs, inline styles through a CSS property allow-list.
 */
export function sanitizeNoticeHtml(html: string): string {
  return filter.process(html).trim()
}


/**
 * The one way a published notice reaches its readers' bells at once: `sysNotice` on the bus, to its one
 * addressee or to the whole tenant, after `trx` commits (README, message bus). Every notice published,
 * by the notice page or by the server (sendPersonalNotice), goes through here.
 */
export async function announceNotice(services: NoticeServices, trx: Db, tenantId: string, by: { userId: string; name: string }, id: string): Promise<void> {
  const row = await trx.selectFrom('sys_notice').select(['title', 'publish_time', 'user_id', 'available']).where('id', '=', id).executeTakeFirst()
  if (!row || !truthy(row.available)) return
  const data: SysNoticeData = { id, title: String(row.title), publishTime: row.publish_time ? String(row.publish_time) : null }
  const options = { trx, by }
  if (row.user_id) await services.bus.publishToUser(tenantId, String(row.user_id), BusEvent.sysNotice, data, options)
  else await services.bus.publishToTenant(tenantId, BusEvent.sysNotice, data, options)
}

/**
 * A personal bell notice from the server (e.g. the CRM reminder before automatic return, a file sent by
 * a colleague): published at once for one user and announced to them as `sysNotice`. `key` makes it
 * idempotent (the same reminder on the same day is sent, and announced, once). `trx` is a transaction
 * of (or) the tenant's database handle: the notice is announced in that tenant.
 */
export async function sendPersonalNotice(services: NoticeServices, trx: Db, userId: string, key: string, title: string, text: string): Promise<void> {
  const tenantId = services.databases.tenantOf(handleOf(trx))
  if (!tenantId) throw new Error('sendPersonalNotice: not a tenant database handle')
  // sys_notice's flags are boolean columns: integers on SQLite.
  const flag = (v: boolean) => (services.databases.kind === 'sqlite' ? (v ? 1 : 0) : v)
  const time = now()
  const system = { userId: 'system', name: '系统' }
  const inserted = await trx
    .insertInto('sys_notice')
    .values({
      id: createHash('sha256').update(`personal\u0000${userId}\u0000${key}`).digest('hex').slice(0, 32),
      title: title.slice(0, 200),
      content: sanitizeNoticeHtml(`<p>${text.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c] as string)}</p>`),
      published: flag(true),
      available: flag(true),
      publish_time: time,
      readed_num: 0,
      un_read_num: 1,
      user_id: userId,
      ...auditColumns(system),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst()
  if (inserted) await announceNotice(services, trx, tenantId, system, String(inserted.id))
}
