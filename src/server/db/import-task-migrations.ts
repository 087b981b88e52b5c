import type { Migration } from 'kysely'
import type { Db, DbKind } from './dialect.js'
import { withAudit } from './migrations.js'

/** Excel import tasks (modules/component/import-tasks.ts): in the platform database. */
export const IMPORT_TASK_TABLE = 'sys_import_task'
const TABLE = IMPORT_TASK_TABLE

/**
 * The task table lives in the platform database, so every process serving the platform sees every
 * task (the poll may reach another process than the upload). Its migrations are its own, with their
 * own bookkeeping table (`component_migration`); a backup replays them too.
 */
export function importTaskMigrations(kind: DbKind): Record<string, Migration> {
  return {
    '0001_import_task': {
      async up(db: Db) {
        await db.schema
          .createTable(TABLE)
          .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('entity', 'varchar(64)', (c) => c.notNull())
          .addColumn('total', 'integer', (c) => c.notNull())
          .addColumn('process', 'integer', (c) => c.notNull())
          .addColumn('success_process', 'integer', (c) => c.notNull())
          .addColumn('tip_msgs', 'text')
          .addColumn('has_error', 'integer', (c) => c.notNull())
          .addColumn('finished', 'integer', (c) => c.notNull())
          .addColumn('data', 'text')
          .$call((t) => withAudit(t, kind))
          .execute()
        await db.schema.createIndex('ix_sys_import_task_create_time').on(TABLE).column('create_time').execute()
      },
    },
    // Several processes: a cancel is a flag on the row (any process may receive the DELETE), and the
    // running process beats on the row so a starting process fails only tasks whose process is gone.
    '0002_import_task_cancel_heartbeat': {
      async up(db: Db) {
        await db.schema.alterTable(TABLE).addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0)).execute()
        await db.schema.alterTable(TABLE).addColumn('heartbeat_time', kind === 'postgres' ? 'timestamp(0)' : 'text').execute()
      },
    },
  }
}
