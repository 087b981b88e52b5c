import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { defineCallListRoute } from '../../engine/call-list-routes.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { invalid, notFound } from '../../platform/errors.js'
import { pageArgs, pageOf } from '../../platform/page-args.js'
import { now } from '../../platform/clock.js'
import { flag } from '../../platform/todos.js'
import { readedFlag, truthy } from '../../platform/notices.js'
import { todos } from '../../../shared/contracts/todos.js'

/** The caller's own todos (platform/todos.ts writes them): nobody reads or marks another's. */
export function todoRoutes(app: FastifyInstance, services: Services): void {
  defineCallListRoute(app, services, todos.my, {
    conditions: [{ name: 'readed', label: '是否已读', kind: 'boolean' }],
    access: 'login',
    handler: async ({ ctx, query }) => {
      const { pageIndex, pageSize } = pageArgs(query)
      const readed = readedFlag(query.readed)
      let base = ctx.db.selectFrom('sys_todo').where('user_id', '=', ctx.userId)
      if (readed !== undefined) base = base.where('readed', '=', flag(ctx.db, readed))
      const { totalCount, rows } = await pageOf(base, (q) => q.select(['id', 'title', 'create_time', 'jump_url', 'readed']).orderBy('create_time', 'desc').orderBy('id', 'desc'), pageIndex, pageSize)
      return {
        pageIndex,
        pageSize,
        totalCount,
        datas: rows.map((r) => ({ id: String(r.id), title: String(r.title), createTime: String(r.create_time), jumpUrl: String(r.jump_url), readed: truthy(r.readed) })),
      }
    },
  })

  defineCallRoute(app, todos.read, {
    access: 'login',
    handler: async ({ ctx, query }) => {
      const id = typeof query.id === 'string' ? query.id.trim() : ''
      if (!id) throw invalid('id不能为空！', 'id')
      const done = await ctx.db
        .updateTable('sys_todo')
        .set({ readed: flag(ctx.db, true), update_time: now() })
        .where('id', '=', id)
        .where('user_id', '=', ctx.userId)
        .executeTakeFirst()
      if (!Number(done.numUpdatedRows)) throw notFound('待办不存在！')
      return null
    },
  })
}
