import { lazy, Suspense, type ComponentType, type ReactNode } from 'react'
import { registerRowAction } from '../../runtime/row-actions.js'
import { registerMenuPage } from '../../app/menu-pages.js'
import type { EntityRow } from '../../runtime/entity-api.js'
import { registerFormControl } from '../../components/form-controls.js'
import MenuPathInput from './MenuPathInput.js'

/**
 * System-administration row actions (the custom `{key, label, permission}` links of the entity
 * files): 用户授权 and 解锁 on users, 授权 on roles, 授权模块 on tenants, 销售属性 on sale-property
 * groups. The dialogs load on first use. 数据权限 on roles, departments and users is registered by
 * features/data-permission.
 */

const UserRoleDialog = lazy(() => import('./UserRoleDialog.js'))
const UnlockUser = lazy(() => import('./UnlockUser.js'))
const RoleMenuDialog = lazy(() => import('./RoleMenuDialog.js'))
const TenantModuleDialog = lazy(() => import('./TenantModuleDialog.js'))
const SalePropItemsDialog = lazy(() => import('./SalePropItemsDialog.js'))
/** 备份管理 (menu component `/system/backup/index`), a page of its own: the archives are files, not rows. */
const BackupListPage = lazy(() => import('./BackupListPage.js'))

let opened = 0

/**
 * One opening of a dialog. The list renders every returned node in the same place, so each opening
 * gets its own key: a second opening must start fresh, not reuse the closing one's state.
 */
function opening<P extends object>(Dialog: ComponentType<P>, props: P): ReactNode {
  opened += 1
  return (
    <Suspense key={`system-action-${opened}`} fallback={null}>
      <Dialog {...props} />
    </Suspense>
  )
}

registerRowAction('user', 'permission', (row: EntityRow, _reload, close) => opening(UserRoleDialog, { user: row, onClose: close }))
registerRowAction('user', 'unlock', (row, reload, close) => opening(UnlockUser, { user: row, reload, onClose: close }))
registerRowAction('role', 'permission', (row, _reload, close) => opening(RoleMenuDialog, { role: row, onClose: close }))
registerRowAction('tenant', 'module', (row, _reload, close) => opening(TenantModuleDialog, { tenant: row, onClose: close }))
registerRowAction('salePropGroup', 'items', (row, _reload, close) => opening(SalePropItemsDialog, { group: row, onClose: close }))

registerMenuPage('/system/backup/index', () => <BackupListPage />)

registerFormControl('menu', 'path', MenuPathInput)
