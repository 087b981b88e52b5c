import { lazy, Suspense, type ReactNode } from 'react'
import { DATA_PERMISSION_BIZ_TYPE as BIZ } from '../../../shared/generated/enum-codes.js'
import { registerRowAction } from '../../runtime/row-actions.js'
import type { EntityRow } from '../../runtime/entity-api.js'

/**
 * 数据权限 row actions: the data-permission designer (设置数据权限) of a role, a department or a user.
 * The entity files declare the links with the server's keys (system:role:data-permission,
 * system:dept:permission, system:user:data-permission); the dialog loads on first use.
 */

const DataPermissionDialog = lazy(() => import('./DataPermissionDialog.js'))

let opened = 0

/** Each opening gets its own key: a second opening starts fresh. */
function opening(target: EntityRow, bizType: number, close: () => void): ReactNode {
  opened += 1
  return (
    <Suspense key={`data-permission-${opened}`} fallback={null}>
      <DataPermissionDialog target={target} bizType={bizType} onClose={close} />
    </Suspense>
  )
}

registerRowAction('role', 'dataPermission', (row, _reload, close) => opening(row, BIZ.ROLE, close))
registerRowAction('dept', 'permission', (row, _reload, close) => opening(row, BIZ.DEPT, close))
registerRowAction('user', 'dataPermission', (row, _reload, close) => opening(row, BIZ.USER, close))
