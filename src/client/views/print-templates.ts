import type { ListSource } from '../runtime/list-source.js'
import { term } from '../i18n/term.js'

/** 打印模板 (`GET /system/print-template/query`): every template of the tenant, by document kind. */
export const PRINT_TEMPLATE_VIEW: ListSource = {
  name: 'system-print-templates',
  path: '/system/print-template/query',
  paged: false,
  fields: {
    kindName: { type: 'string', label: term('单据类型') },
    name: { type: 'string', label: term('模板名称') },
    isDefault: { type: 'boolean', label: term('默认模板') },
    version: { type: 'integer', label: term('版本') },
    updateBy: { type: 'string', label: term('修改人') },
    updateTime: { type: 'datetime', label: term('修改时间') },
  },
  query: [],
  columns: [
    { key: 'kindName', width: 160 },
    { key: 'name', width: 200 },
    { key: 'isDefault', width: 100, ellipsis: false },
    { key: 'version', width: 80, numeric: true },
    { key: 'updateBy', width: 120 },
    { key: 'updateTime', width: 170, ellipsis: false },
  ],
}
