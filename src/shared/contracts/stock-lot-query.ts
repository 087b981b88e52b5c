import type { QueryParam } from '../generated/entity.js'

/**
 * The filters of 商品批次库存 (`GET /stock/lot/query`) over the ledger's own columns: read by the server
 * route and by the lot screen's search form, so both name the same params. A lot is an inbound movement,
 * so its number is the movement's document number (`lotCode`) and its date the posting time.
 */
export const STOCK_LOT_PARAMS: readonly QueryParam[] = [
  { field: 'scId', op: 'eq' },
  { field: 'productId', op: 'in' },
  { field: 'bizType', op: 'eq' },
  { field: 'bizCode', op: 'contains', param: 'lotCode', label: '批次号' },
  { field: 'createTime', op: 'between', label: '入库时间' },
]
