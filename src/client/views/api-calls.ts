import type { ListSource } from '../runtime/list-source.js'
import { apiDocs } from '../../shared/contracts/meta.js'
import { term } from '../i18n/term.js'

/**
 * 接口文档's index (`/development/api-docs/query`): every call of the OpenAPI document in the order of its
 * path, found by a part of its method and path, its summary or a permission key.
 */
export const API_CALLS_VIEW: ListSource = {
  name: apiDocs.query.path,
  path: apiDocs.query.path,
  fields: {
    keyword: { type: 'string', label: term('关键字') },
    method: { type: 'string', label: term('请求方式') },
    path: { type: 'string', label: term('接口路径') },
    summary: { type: 'string', label: term('说明') },
    tag: { type: 'string', label: term('分组') },
    access: { type: 'string', label: term('调用条件') },
    permissions: { type: 'string', label: term('权限键') },
  },
  query: [{ field: 'keyword' }],
  columns: [
    { key: 'method', width: 90, ellipsis: false },
    { key: 'path', width: 320 },
    { key: 'summary', width: 320 },
    { key: 'tag', width: 110 },
    { key: 'access', width: 110, ellipsis: false },
    { key: 'permissions', width: 280 },
  ],
}
