/** 客户范围 tabs (CRM_CUSTOMER_SCOPE). */
export const SCOPE = { MINE: 1, DEPT: 2, ALL: 3 } as const

/** The paths of the customer pages below 客户管理 (spec 000 §2: add, modify, detail, print, H5, detailV2). */
export const customerPaths = {
  list: '/crm/customer',
  add: '/crm/customer/add',
  modify: (id: string) => `/crm/customer/modify/${id}`,
  detail: (id: string) => `/crm/customer/detail/${id}`,
  detailV2: (id: string) => `/crm/customer/detailV2/${id}`,
  print: (id: string) => `/crm/customer/print/${id}`,
  h5List: '/crm/customer/h5',
  h5Add: '/crm/customer/h5/add',
  h5Detail: (id: string) => `/crm/customer/h5/detail/${id}`,
  h5Modify: (id: string) => `/crm/customer/h5/modify/${id}`,
}

/** A customer in the sea that no pool's departments cover is in the company-wide sea (public-sea.ts: no pool is the company sea). */
export const COMPANY_SEA = '全公司公海' // i18n-ignore
export const inCompanySea = (row: { ownerId?: unknown; poolId?: unknown }) => !row.ownerId && !row.poolId
