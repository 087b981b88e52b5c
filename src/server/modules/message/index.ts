import type { FastifyInstance } from 'fastify'
import { defineCallListRoute } from '../../engine/call-list-routes.js'
import { invalid } from '../../platform/errors.js'
import { pageArgs } from '../../platform/page-args.js'
import type { Services } from '../../engine/services.js'
import { queryBusMessages } from '../../realtime/bus-messages.js'
import { BIZ_TYPE_PATTERN, busCalls } from '../../../shared/contracts/bus.js'

/**
 * The message bus's HTTP side (001 §7 Other base data): `GET /message/bus/query` lists the caller's
 * recent bus messages (to the whole tenant and to them), paged, newest first. Optional `bizType` keeps
 * one kind; `personal=true` only those addressed to the caller (the bell's 消息 tab).
 */
export function messageModule(app: FastifyInstance, services: Services): void {
  defineCallListRoute(app, services, busCalls.query, {
    conditions: [{ name: 'personal', label: '只看我的', kind: 'boolean' }],
    access: 'login',
    handler: async ({ ctx, query }) => {
      const { pageIndex, pageSize } = pageArgs(query)
      const bizType = typeof query.bizType === 'string' ? query.bizType.trim() : ''
      if (bizType && !BIZ_TYPE_PATTERN.test(bizType)) throw invalid('消息类型不正确', 'bizType')
      const personal = query.personal === true || query.personal === 'true' || query.personal === '1'
      const page = await queryBusMessages(services.databases.platform, {
        tenantId: ctx.tenantId,
        userId: ctx.userId,
        pageIndex,
        pageSize,
        bizType: bizType || undefined,
        personal,
      })
      return { pageIndex, pageSize, ...page }
    },
  })
}
