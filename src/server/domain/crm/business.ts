import type { EntityHooks } from '../../engine/entity-hooks.js'
import { approvalHooks } from './approval.js'

/** 商机 (crmBusiness): pending on create, owned by the creator unless chosen, frozen once approved. */
export const BUSINESS_SUBJECT = '商机'

export function crmBusinessHooks(): EntityHooks {
  return approvalHooks(BUSINESS_SUBJECT, 'ownerId')
}
