import { defineCall, type Page, type PageParams } from './call.js'

/** An API token as listed: never the token itself (it is shown once, when made). */
export interface ApiTokenRow {
  id: string
  name: string
  userId: string
  username: string
  /** The permission keys the token narrows its user to. */
  permissions: string[]
  expireTime: string
  lastUsedTime: string | null
  createTime: string
}

export interface NewApiToken {
  name: string
  /** Last moment the token is valid (`YYYY-MM-DD HH:mm:ss`), in the future. */
  expireTime: string
  /** A subset of the keys of the token's user. */
  permissions: string[]
  /** Another user of the tenant (a service user), for an admin holding 为其他用户管理令牌; the caller by default. */
  userId?: string
}

/** A menu of the tree a token's keys are chosen in: a key's menu and the catalogs above it. */
export interface ApiTokenKeyMenu {
  id: string
  parentId: string | null
  /** As the menu seed writes it (Simplified); the screen shows it in the user's language. */
  title: string
  /** The key this menu (or button) grants, among the user's own; null for a catalog above them. */
  permission: string | null
}

/** The keys a token of a user may carry, and the menus they belong to (in menu order). */
export interface ApiTokenKeys {
  keys: string[]
  menus: ApiTokenKeyMenu[]
}

/** The token, in this answer only: the server keeps its SHA-256 digest. */
export interface MadeApiToken {
  id: string
  token: string
}

/** 接口令牌 (系统管理): tokens acting as their user through `Authorization: Bearer …`, narrowed to some keys. */
export const apiTokens = {
  query: defineCall<PageParams & { userId?: string }, Page<ApiTokenRow>>('GET', '/system/api-token/query'),
  /** The keys a token of that user (the caller by default) may carry, grouped as the menu is. */
  keys: defineCall<{ userId?: string }, ApiTokenKeys>('GET', '/system/api-token/keys'),
  create: defineCall<NewApiToken, MadeApiToken>('POST', '/system/api-token'),
  revoke: defineCall<{ id: string }, null>('DELETE', '/system/api-token'),
}
