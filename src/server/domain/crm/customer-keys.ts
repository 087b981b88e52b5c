/** Permission keys of the CRM customer screens (schemas/seed/menus.json, 客户管理 and 公海客户). */
export const CUSTOMER_KEYS = {
  query: 'crm:customer:query',
  add: 'crm:customer:add',
  modify: 'crm:customer:modify',
  transfer: 'crm:customer:transfer',
  release: 'crm:customer:release',
  lock: 'crm:customer:lock',
  dept: 'crm:customer:dept',
  all: 'crm:customer:all',
  sea: 'crm:public-sea:query',
  claim: 'crm:public-sea:claim',
  runReturn: 'crm:sea-rule:run',
} as const
