import type { ListSource } from '../runtime/list-source.js'
import { term } from '../i18n/term.js'

/** 盘点任务管理 (`/stock/take/plan/query`): the plans, searchable by number, warehouse and status. */
export const TAKE_PLAN_VIEW: ListSource = {
  name: 'take-stock-plans',
  path: '/stock/take/plan/query',
  fields: {
    code: { type: 'string', label: term('业务单据号') },
    scId: { type: 'ref', label: term('仓库'), ref: 'storeCenter', picker: 'sc' },
    takeStatus: { type: 'enum', label: term('盘点状态'), enum: 'TAKE_STOCK_PLAN_STATUS' },
  },
  query: [{ field: 'code' }, { field: 'scId' }, { field: 'takeStatus' }],
  columns: [
    { key: 'code', title: term('业务单据号'), width: 180, ellipsis: false },
    { key: 'scId', title: term('仓库'), width: 140, ellipsis: false },
    { key: 'takeType', title: term('盘点类别'), width: 100, ellipsis: false },
    { key: 'takeStatus', title: term('盘点状态'), width: 130, ellipsis: false },
    { key: 'createBy', title: term('创建人'), width: 110, ellipsis: false },
    { key: 'createTime', title: term('创建时间'), width: 170, ellipsis: false },
    { key: 'description', title: term('备注'), width: 180 },
  ],
}
