import { auditColumns } from '../../platform/audit-columns.js'
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { sql, type SqlBool } from 'kysely'
import type { Db } from '../../db/dialect.js'
import { defineRoute } from '../../platform/routes.js'
import { defineListRoute } from '../../engine/list-routes.js'
import { invalid, notFound } from '../../platform/errors.js'
import { inTransaction } from '../../platform/db-tx.js'
import { now } from '../../platform/clock.js'
import { hasPermission, type RequestContext } from '../../platform/request-context.js'
import type { FieldModel } from '../../../shared/metadata/entity-model.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'
import type { Services } from '../../engine/services.js'
import { pageArgs, pageOf } from '../../platform/page-args.js'
import { announceNotice, readedFlag, sanitizeNoticeHtml, truthy } from '../../platform/notices.js'
import { notices as noticeCalls } from '../../../shared/contracts/notices.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/** Who may see a notice before it is published (the publish page). */
const PUBLISHER_KEYS = [PERMISSION.system.notice.publish, PERMISSION.system.notice.add, PERMISSION.system.notice.modify] as const

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

  /** The signed-in user's published notices, newest first, each with its `readed` flag. */
  defineListRoute(app, services, {
    method: noticeCalls.my.method,
    url: noticeCalls.my.path,
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
      const { totalCount, rows } = await pageOf(
        base,
        (q) => q.select(['n.id', 'n.title', 'n.publish_time', 'l.readed']).orderBy('n.publish_time', 'desc').orderBy('n.id', 'desc'),
        pageIndex,
        pageSize,
      )
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
    method: noticeCalls.content.method,
    url: noticeCalls.content.path,
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
