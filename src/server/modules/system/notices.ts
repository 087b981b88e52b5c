import { auditColumns } from '../../platform/audit-columns.js'
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { sql, type SqlBool } from 'kysely'
import * as xss from 'xss'
import type { Db } from '../../db/dialect.js'
import { defineRoute } from '../../platform/routes.js'
import { defineListRoute } from '../../engine/list-routes.js'
import { invalid, notFound } from '../../platform/errors.js'
import { handleOf, inTransaction } from '../../platform/db-tx.js'
import { now } from '../../platform/clock.js'
import { hasPermission, type RequestContext } from '../../platform/request-context.js'
import type { FieldModel } from '../../../shared/metadata/entity-model.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'
import type { Services } from '../../engine/services.js'
import { pageArgs } from '../../platform/page-args.js'
import { BusEvent, type SysNoticeData } from '../../../shared/contracts/bus.js'

/** Who may see a notice before it is published (the publish page). */
const PUBLISHER_KEYS = ['system:notice:publish', 'system:notice:add', 'system:notice:modify'] as const

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

const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true'

/** One read-log row per (notice, user): a fixed id makes "insert if missing" safe under concurrency. */
const logId = (noticeId: string, userId: string) => createHash('sha256').update(`${noticeId}\u0000${userId}`).digest('hex').slice(0, 32)

export function noticeRoutes(app: FastifyInstance, services: Services): void {
  const { registry, codec, hooks } = services
  const notice = registry.get('notice')
  const field = (name: string) => notice.byName.get(name) as FieldModel
  const bool = (v: boolean) => codec.toColumn(field('available'), v)

  const activeUsers = async (trx: Db) =>
    Number(
      (await trx.selectFrom('sys_user').select((eb) => eb.fn.countAll().as('n')).where('available', '=', bool(true)).executeTakeFirst())?.n ?? 0,
    )

  // Who neither manages nor publishes notices reads what their bell shows (published system notices and
  // their own personal ones) and only their own read marks, wherever the tables are read (custom lists).
  const managers = [...operationKeys(notice, 'query'), ...operationKeys(notice, 'get'), ...PUBLISHER_KEYS]
  hooks.on('notice', {
    restrictRows: ({ ctx }) =>
      hasPermission(ctx, managers)
        ? undefined
        : sql<SqlBool>`(t.published = ${bool(true)} and t.available = ${bool(true)} and (t.user_id is null or t.user_id = ${ctx.userId}))`,
  })
  hooks.on('noticeLog', { restrictRows: ({ ctx }) => (hasPermission(ctx, managers) ? undefined : sql<SqlBool>`t.user_id = ${ctx.userId}`) })
  hooks.on('notice', {
    async beforeSave({ values }) {
      if (!('content' in values)) return
      const clean = sanitizeNoticeHtml(String(values.content ?? ''))
      if (!clean) throw invalid(field('content').requiredMessage ?? '请输入内容', 'content')
      values.content = clean
    },
    // Publishing (on create, or on any modify, as the ancestor does) starts the read count afresh.
    async afterSave({ trx, ctx, id, mode, values, existing }) {
      const published = truthy(values.published ?? existing?.published)
      if (mode === 'modify') await trx.deleteFrom('sys_notice_log').where('notice_id', '=', id).execute()
      await trx
        .updateTable('sys_notice')
        .set({
          publish_time: published ? now() : null,
          readed_num: 0,
          un_read_num: published ? await activeUsers(trx) : 0,
        })
        .where('id', '=', id)
        .execute()
      if (published) await announceNotice(services, trx, ctx.tenantId, { userId: ctx.userId, name: ctx.name }, id)
    },
  })

  const page = (query: Record<string, unknown>) => pageArgs(query)

  const readedFlag = (v: unknown): boolean | undefined => {
    if (v === undefined || v === null || v === '') return undefined
    if ([true, 'true', '1', 1].includes(v as never)) return true
    if ([false, 'false', '0', 0].includes(v as never)) return false
    throw invalid('是否已读取值不正确', 'readed')
  }

  /** The signed-in user's published notices, newest first, each with its `readed` flag. */
  defineListRoute(app, services, {
    method: 'GET',
    url: '/system/notice/query/my',
    conditions: [{ name: 'readed', label: '是否已读', kind: 'boolean' }],
    access: 'login',
    handler: async ({ ctx, query }) => {
      const { pageIndex, pageSize } = page(query)
      const readed = readedFlag(query.readed)
      const title = typeof query.title === 'string' ? query.title.trim() : ''
      let base = ctx.db
        .selectFrom('sys_notice as n')
        .leftJoin('sys_notice_log as l', (join) => join.onRef('l.notice_id', '=', 'n.id').on('l.user_id', '=', ctx.userId))
        .where('n.published', '=', bool(true))
        .where('n.available', '=', bool(true))
        .where((eb) => eb.or([eb('n.user_id', 'is', null), eb('n.user_id', '=', ctx.userId)]))
      if (readed === true) base = base.where('l.readed', '=', bool(true))
      if (readed === false) base = base.where((eb) => eb.or([eb('l.readed', 'is', null), eb('l.readed', '=', bool(false))]))
      if (title) {
        const pattern = `%${title.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
        base = base.where(
          services.databases.kind === 'postgres'
            ? sql<SqlBool>`n.title ilike ${pattern} escape '\\'`
            : sql<SqlBool>`n.title like ${pattern} escape '\\'`,
        )
      }
      const totalCount = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0)
      const rows = await base
        .select(['n.id', 'n.title', 'n.publish_time', 'l.readed'])
        .orderBy('n.publish_time', 'desc')
        .orderBy('n.id', 'desc')
        .limit(pageSize)
        .offset((pageIndex - 1) * pageSize)
        .execute()
      return {
        pageIndex,
        pageSize,
        totalCount,
        datas: rows.map((r) => ({
          id: r.id,
          title: r.title,
          publishTime: r.publish_time ?? null,
          readed: truthy(r.readed),
        })),
      }
    },
  })

  /**
   * A notice's content for reading; marks it read for the caller. It answers the readers (the key of
   * the 系统通知 page, `{permission}:query`) and the publishers, as the notice entity names them.
   */
  defineRoute(app, {
    method: 'GET',
    url: '/system/notice/content',
    access: [`${notice.file.api!.permission}:query`, ...PUBLISHER_KEYS],
    handler: async ({ ctx, query }) => {
      const id = typeof query.id === 'string' ? query.id.trim() : ''
      if (!id) throw invalid('id不能为空！', 'id')
      const row = await ctx.db
        .selectFrom('sys_notice')
        .select(['id', 'title', 'content', 'published', 'available', 'publish_time'])
        .where('id', '=', id)
        .where((eb) => eb.or([eb('user_id', 'is', null), eb('user_id', '=', ctx.userId)]))
        .executeTakeFirst()
      if (!row) throw notFound('系统通知不存在！')
      const visible = truthy(row.published) && truthy(row.available)
      const answer = (readed: boolean) => ({
        id: row.id,
        title: row.title,
        content: row.content,
        publishTime: row.publish_time ?? null,
        readed,
      })
      if (!visible) {
        // Drafts and disabled notices: only the publish page may look, and that is no reading.
        if (!hasPermission(ctx, PUBLISHER_KEYS)) throw notFound('系统通知不存在！')
        return answer(false)
      }
      await markRead(ctx, id)
      return answer(true)
    },
  })

  async function markRead(ctx: RequestContext, noticeId: string) {
    const logIdValue = logId(noticeId, ctx.userId)
    const time = now()
    await inTransaction(ctx.db, async (trx) => {
      await trx
        .insertInto('sys_notice_log')
        .values({
          id: logIdValue,
          notice_id: noticeId,
          user_id: ctx.userId,
          readed: bool(false),
          read_time: null,
          ...auditColumns(ctx),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
      const changed = await trx
        .updateTable('sys_notice_log')
        .set({ readed: bool(true), read_time: time, update_time: time })
        .where('id', '=', logIdValue)
        .where('readed', '=', bool(false))
        .executeTakeFirst()
      if (Number(changed.numUpdatedRows) > 0) {
        await trx
          .updateTable('sys_notice')
          .set({
            readed_num: sql`coalesce(readed_num, 0) + 1`,
            un_read_num: sql`case when coalesce(un_read_num, 0) > 0 then un_read_num - 1 else 0 end`,
          })
          .where('id', '=', noticeId)
          .execute()
      }
    })
  }
}

/**
 * The one way a published notice reaches its readers' bells at once: `sysNotice` on the bus, to its one
 * addressee or to the whole tenant, after `trx` commits (README, message bus). Every notice published,
 * by the notice page or by the server (sendPersonalNotice), goes through here.
 */
export async function announceNotice(services: Services, trx: Db, tenantId: string, by: { userId: string; name: string }, id: string): Promise<void> {
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
export async function sendPersonalNotice(services: Services, trx: Db, userId: string, key: string, title: string, text: string): Promise<void> {
  const tenantId = services.databases.tenantOf(handleOf(trx))
  if (!tenantId) throw new Error('sendPersonalNotice: not a tenant database handle')
  const notice = services.registry.get('notice')
  const flag = (v: boolean) => services.codec.toColumn(notice.byName.get('available') as FieldModel, v)
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
