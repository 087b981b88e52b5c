import { installSchemaNotify } from '../db/pg-listener.js'
import type { Db, DbKind } from '../db/dialect.js'
import { GRANTS_CHANGED_CHANNEL } from './permissions.js'

const ANY_CHANGE = 'insert or update or delete or truncate'

/**
 * The tables a user's grants are read from (permissions.ts loadGrants) and their data permission
 * (data-permission-filter.ts: the saved trees, the user's departments and the department tree), and the changes
 * that alter them.
 */
const GRANT_TABLES: Record<string, string> = {
  sys_user: 'update of available, name, username or delete or truncate',
  sys_user_role: ANY_CHANGE,
  sys_role: ANY_CHANGE,
  sys_role_menu: ANY_CHANGE,
  sys_menu: ANY_CHANGE,
  sys_data_permission_data: ANY_CHANGE,
  sys_dept: 'insert or update of parent_id or delete or truncate',
}

/**
 * PostgreSQL: every statement that changes a grant table of a tenant notifies GRANTS_CHANGED_CHANNEL with the
 * tenant's schema when it commits, so each process drops that tenant's cached grants and data permissions (a
 * role taken away through one process no longer passes on another). `userDeptTable` is the link table of users
 * and their departments. After the entity tables exist; idempotent.
 */
export async function installGrantsNotify(db: Db, kind: DbKind, schema: string | undefined, userDeptTable: string): Promise<void> {
  if (kind !== 'postgres' || !schema) return
  await installSchemaNotify(db, schema, 'grants_changed', GRANTS_CHANGED_CHANNEL, { ...GRANT_TABLES, [userDeptTable]: ANY_CHANGE })
}
