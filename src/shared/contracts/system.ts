import { defineCall, defineRead } from './call.js'

/** System administration calls of the hand-written dialogs (000 §7 System). */

/** A menu as `/system/role/menu/menus` answers it, with whether the role holds it. */
export interface MenuGrant {
  id: string
  parentId: string | null
  title: string
  /** 0 目录 (catalog), 1 菜单 (function), 2 权限 (permission button). */
  display: number
  permission: string | null
  available: unknown
  selected: boolean
}

/** A role as `/system/user/role/roles` answers it: the role and whether the user holds it. */
export interface RoleChoice {
  id: string
  code: string
  name: string
  permission?: string | null
  available: unknown
  description?: string | null
  selected: boolean
}

export interface ModuleRow {
  id: string
  name: string
  description?: string | null
}

/** A condition node template (`GET /system/data/permission/model/detail?modelId`). */
export interface PaletteItem {
  id: number
  detailId: number
  modelId: number
  nodeType: number
  name: string
  inputType: number
  conditionTypes: number[]
  enumName: string | null
}

/** A data-permission model (`GET .../model/detail/query`): id = permission type. */
export interface PermissionModelRow {
  id: number
  name: string
}

export interface SavedPermission {
  nodes: unknown[]
}

export type PermissionTarget = { bizId: string; bizType: number; permissionType: number }
export type PermissionSave = { bizIds: string[]; bizType: number; permissionType: number; permission: string }

export const system = {
  roleMenus: defineCall<{ roleId: string }, MenuGrant[]>('GET', '/system/role/menu/menus'),
  setRoleMenus: defineCall<{ roleIds: string[]; menuIds: string[] }, null>('POST', '/system/role/menu/setting'),
  userRoles: defineCall<{ userId: string }, RoleChoice[]>('GET', '/system/user/role/roles'),
  setUserRoles: defineCall<{ userIds: string[]; roleIds: string[] }, null>('POST', '/system/user/role/setting'),
  unlockUser: defineCall<{ id: string }, null>('PATCH', '/system/user/unlock'),
  modules: defineCall<void, ModuleRow[]>('GET', '/system/module/query'),
  /** The module ids a tenant holds. */
  tenantModules: defineCall<{ tenantId: string }, string[]>('GET', '/system/module/tenant'),
  setTenantModules: defineCall<{ tenantId: string; moduleIds: string[] }, null>('POST', '/system/module/setting'),
  /**
   * The next code of a numbering rule (`target`: entity.field, e.g. customer.code), used up at once:
   * a new record's form proposes it (not in the spec; schemas/entities/code-rule.json).
   */
  nextCode: defineCall<{ target: string }, { code: string }>('POST', '/system/code-rule/next'),
}

export const dataPermission = {
  /** The models; with bizId, bizType or permissionType, the saved permission's nodes instead (the ancestor's reading). */
  models: defineCall<void, PermissionModelRow[] | SavedPermission['nodes']>('GET', '/system/data/permission/model/detail/query'),
  palette: defineCall<{ modelId: number }, PaletteItem[]>('GET', '/system/data/permission/model/detail'),
  saved: defineCall<PermissionTarget, SavedPermission>('GET', '/system/data/permission/data/queryByBizId'),
  /** The SQL a permission tree stands for. */
  preview: defineRead<{ modelId: number; permission: unknown }, string>('/system/data/permission/model/detail/preview'),
  save: defineCall<PermissionSave[], null>('POST', '/system/data/permission/data/saveData'),
}
