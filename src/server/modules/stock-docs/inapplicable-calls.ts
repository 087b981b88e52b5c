import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { defineRoute } from '../../platform/routes.js'
import { invalid } from '../../platform/errors.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface InapplicableCall {
  method: Method
  url: string
  /** The entity whose permission keys guard the answer (so a user without them still gets 403). */
  entity: 'preTakeStockSheet' | 'takeStockConfig'
  msg: string
}

const NO_PRE_APPROVAL = '预先盘点单没有审核流程：保存后即可在盘点单中引用，无需审核！'
const CONFIG_NOT_A_LIST = '盘点参数是一条设置，不是单据列表：请在“盘点参数设置”中查看和修改！'
const CONFIG_NO_APPROVAL = '盘点参数修改后立即生效，没有审核流程！'

/**
 * Calls endpoints.tsv infers for stock-taking from the shared document shape ("families follow the shared
 * document shape", 001 §7) that cannot apply, each answered 400 with the reason instead of 404 (the
 * catalogue marks all of them doubtful, endpoints.md notes 1-2):
 * - the pre-take sheet has no approval flow (domain-rules §2.6.2: "No approval flow"; 000 §2 routes show
 *   only add and modify for it), so its five approve calls have nothing to do;
 * - the take-stock configuration is one settings row per tenant (GET/PUT /stock/take/config, like
 *   /purchase/config): there is no list to query or export, no row to create or delete, and no approval.
 * This list is the one place these decisions live; the catalogue sweeps read it (test/support).
 */
export const INAPPLICABLE_CALLS: readonly InapplicableCall[] = [
  ...(['pass/direct', 'pass', 'refuse', 'pass/batch', 'refuse/batch'] as const).map((action) => ({
    method: (action === 'pass/direct' ? 'POST' : 'PATCH') as Method,
    url: `/stock/take/pre/approve/${action}`,
    entity: 'preTakeStockSheet' as const,
    msg: NO_PRE_APPROVAL,
  })),
  { method: 'GET', url: '/stock/take/config/query', entity: 'takeStockConfig', msg: CONFIG_NOT_A_LIST },
  { method: 'POST', url: '/stock/take/config/export', entity: 'takeStockConfig', msg: CONFIG_NOT_A_LIST },
  { method: 'POST', url: '/stock/take/config', entity: 'takeStockConfig', msg: CONFIG_NOT_A_LIST },
  { method: 'DELETE', url: '/stock/take/config', entity: 'takeStockConfig', msg: CONFIG_NOT_A_LIST },
  { method: 'DELETE', url: '/stock/take/config/batch', entity: 'takeStockConfig', msg: CONFIG_NOT_A_LIST },
  ...(['pass/direct', 'pass', 'refuse', 'pass/batch', 'refuse/batch'] as const).map((action) => ({
    method: (action === 'pass/direct' ? 'POST' : 'PATCH') as Method,
    url: `/stock/take/config/approve/${action}`,
    entity: 'takeStockConfig' as const,
    msg: CONFIG_NO_APPROVAL,
  })),
]

export function inapplicableCallRoutes(app: FastifyInstance, services: Services): void {
  for (const call of INAPPLICABLE_CALLS) {
    const entity = services.registry.get(call.entity)
    defineRoute(app, {
      method: call.method,
      url: call.url,
      access: [...new Set([...operationKeys(entity, 'query'), ...operationKeys(entity, 'modify')])],
      handler: async () => {
        throw invalid(call.msg)
      },
    })
  }
}
