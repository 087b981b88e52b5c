import type { ListSource } from '../runtime/list-source.js'
import { apiTokens } from '../../shared/contracts/api-tokens.js'
import { term } from '../i18n/term.js'
import { PERMISSION } from '../../shared/generated/permission-keys.js'

/**
 * 接口令牌 (`/system/api-token/query`): the caller's tokens, newest first; a holder of 管理其他用户的令牌
 * sees every user's and may narrow them to one user.
 */
export const API_TOKENS_VIEW: ListSource = {
  name: apiTokens.query.path,
  path: apiTokens.query.path,
  fields: {
    name: { type: 'string', label: term('令牌名称') },
    userId: { type: 'ref', label: term('所属用户'), ref: 'user', picker: 'user' },
    username: { type: 'string', label: term('所属用户') },
    permissions: { type: 'integer', label: term('权限数') },
    createTime: { type: 'datetime', label: term('创建时间') },
    expireTime: { type: 'datetime', label: term('有效期至') },
    lastUsedTime: { type: 'datetime', label: term('最近使用') },
    state: { type: 'string', label: term('状态') },
  },
  query: [{ field: 'userId', permission: PERMISSION.system.apiToken.others }],
  columns: [
    { key: 'name', width: 200 },
    { key: 'username', width: 130 },
    { key: 'permissions', width: 90, numeric: true },
    { key: 'createTime', width: 170 },
    { key: 'expireTime', width: 170 },
    { key: 'lastUsedTime', width: 170 },
    { key: 'state', width: 90, ellipsis: false },
  ],
}
