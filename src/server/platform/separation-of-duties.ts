import type { Db } from '../db/dialect.js'
import { invalid } from './errors.js'
import { parameterFlag } from './parameters.js'
import type { RequestContext } from './request-context.js'

/** The system parameter (系统参数) that turns separation of duties on: false unless an admin sets it. */
export const SEPARATE_DUTIES_KEY = 'approval.separate-duties'

/**
 * Separation of duties: with the parameter on, whoever made a record (a document, a 商机, a contract)
 * may neither pass nor refuse it; another person with the approve key must. Read through the request's
 * kept reads (`ctx.settings`): a change of the parameter applies to the next approval in this process at once
 * and in the others when its commit is heard (platform/settings-cache.ts).
 */
export async function assertNotOwnApproval(db: Db, ctx: RequestContext, createdById: unknown, subject: string): Promise<void> {
  if (createdById !== ctx.userId) return
  if (await parameterFlag(db, SEPARATE_DUTIES_KEY, false, ctx.settings)) throw invalid(`不允许审核自己创建的${subject}`)
}
