import type { ListSource, SourceColumn } from '../runtime/list-source.js'
import { PERMISSION } from '../../shared/generated/permission-keys.js'

/** The conditions of the customer lists (the server's LIST_PARAMS), over the customer entity's fields. */
const SEARCH = [{ field: 'name' }, { field: 'code' }, { field: 'telephone' }, { field: 'level' }, { field: 'dealStatus' }]

/** A customer field as a column: titled and drawn from schemas/entities/customer.json. */
const column = (key: string, width = 120): SourceColumn => ({ key, width })
const TIME = 170

/** A customer list over the customer entity, with the customer search. */
const customerView = (name: string, path: string, columns: SourceColumn[]): ListSource => ({ name, path, entity: 'customer', query: SEARCH, columns })

/** 客户管理 (`/basedata/customer/queryCustomerAss`, the page adds the 客户范围 tab as `scope`). */
export const CUSTOMER_VIEW = customerView('crm-customers', '/basedata/customer/queryCustomerAss', [
  column('code'),
  column('name', 200),
  column('level'),
  column('dealStatus'),
  column('contact'),
  column('telephone'),
  column('ownerId'),
  column('deptId'),
  column('lastFollowTime', TIME),
  column('nextFollowTime', TIME),
  column('locked'),
  column('createTime', TIME),
])

/** 公海客户 (`/basedata/customer/queryPublicSea`): the unowned customers of the caller's pools. */
export const PUBLIC_SEA_VIEW = customerView('crm-sea', '/basedata/customer/queryPublicSea', [
  column('code'),
  column('name', 200),
  column('level'),
  column('contact'),
  column('telephone'),
  column('poolId'),
  column('preOwnerId'),
  column('poolTime', TIME),
  column('lastFollowTime', TIME),
  column('createTime', TIME),
])

/** 跟进记录 (`/crm/action/query`): the follow-ups the user may see, searchable by content, way and time; 导出 as xlsx. */
export const ACTION_VIEW: ListSource = {
  name: 'crm-actions',
  path: '/crm/action/query',
  entity: 'crmCustomerAction',
  query: [{ field: 'content' }, { field: 'actionType' }, { field: 'actionTime', op: 'between' }],
  export: { path: '/crm/action/export', method: 'get', permission: PERMISSION.crm.action.export },
  columns: [
    column('customerId', 150),
    column('actionType', 150),
    column('content', 320),
    column('actionTime', 150),
    column('nextTime', 150),
    column('nextContent', 150),
    column('followerId', 150),
  ],
}
