import { defineCall, type Page, type PageParams } from './call.js'
import type { MenuNode } from './menu-node.js'

/** Sign-in, the account and the personal centre (000 §7 Auth and account). */

/** The signed-in user as cached by the client (admin.user): the user record and its tenant. */
export interface SessionUser {
  id: string
  code: string
  name: string
  username: string
  tenantId: string
  [key: string]: unknown
}

/** What the client caches after login (admin.user, admin.roles) and what /auth/info answers. */
export interface CurrentUser {
  user: SessionUser
  /** Role codes. */
  roles: string[]
  /** Permission keys; `admin` passes everything. */
  permissions: string[]
}

export interface LoginAnswer extends CurrentUser {
  token: string
}

export interface SystemInit {
  captcha: boolean
  multiTenant: boolean
  allowRegist: boolean
  title: string
}

export interface Captcha {
  sn: string
  image: string
}

/** A recovery channel of a forgotten password. */
export type RecoveryChannel = 'mail' | 'sms'

export type OpLogRow = { id?: string; name: string; logType: number; ip: string; createTime: string }

export const auth = {
  /** Public: login options and the system name. */
  init: defineCall<void, SystemInit>('GET', '/auth/init'),
  captcha: defineCall<void, Captcha>('GET', '/auth/captcha'),
  login: defineCall<{ username: string; password: string; sn: string; captcha: string }, LoginAnswer>('POST', '/auth/login'),
  logout: defineCall<void, null>('POST', '/auth/logout'),
  info: defineCall<void, CurrentUser>('GET', '/auth/info'),
  /** The caller's menu tree. */
  menus: defineCall<void, MenuNode[]>('GET', '/auth/menus'),
  /** Adds a menu to the caller's favourites (`collect`) or takes it off (`uncollect`). */
  collectMenu: defineCall<{ menuId: string }, null>('POST', '/menu/collect'),
  uncollectMenu: defineCall<{ menuId: string }, null>('POST', '/menu/collect/cancel'),
  regist: defineCall<{ username: string; name?: string; password: string; email?: string; telephone?: string; sn: string; captcha: string }, { id: string }>('POST', '/auth/regist'),
  /** The same placeholders for every name (no answer tells whether the name has an account). */
  forgetUsername: defineCall<{ username: string }, { email: string | null; telephone: string | null }>('GET', '/auth/forget/username'),
  forgetCode: {
    mail: defineCall<{ username: string }, null>('GET', '/auth/forget/mail/code'),
    sms: defineCall<{ username: string }, null>('GET', '/auth/forget/sms/code'),
  } satisfies Record<RecoveryChannel, unknown>,
  forgetReset: {
    mail: defineCall<{ username: string; code: string; password: string }, null>('POST', '/auth/forget/mail'),
    sms: defineCall<{ username: string; code: string; password: string }, null>('POST', '/auth/forget/sms'),
  } satisfies Record<RecoveryChannel, unknown>,
  telephoneCaptcha: defineCall<{ telephone: string; tenantId?: string }, null>('GET', '/auth/login/telephone/captcha'),
  telephoneLogin: defineCall<{ telephone: string; captcha: string; tenantId?: string }, LoginAnswer>('POST', '/auth/login/telephone'),
}

export const center = {
  info: defineCall<void, SessionUser>('GET', '/center/info'),
  contact: {
    email: defineCall<{ email: string }, null>('PATCH', '/center/email'),
    telephone: defineCall<{ telephone: string }, null>('PATCH', '/center/telephone'),
  },
  password: defineCall<{ oldPsw: string; newPsw: string; confirmPsw?: string }, null>('PATCH', '/center/password'),
  oplog: defineCall<PageParams, Page<OpLogRow>>('GET', '/center/oplog'),
}
