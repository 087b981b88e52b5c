import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/** Permission keys of the CRM customer screens: 客户管理's buttons plus the 公海客户 keys that reach customers. */
export const CUSTOMER_KEYS = {
  ...PERMISSION.crm.customer,
  sea: PERMISSION.crm.publicSea.query,
  claim: PERMISSION.crm.publicSea.claim,
  runReturn: PERMISSION.crm.seaRule.run,
} as const
