import { Migrator, type CreateTableBuilder, type Migration } from 'kysely'
import type { Db, DbKind } from './dialect.js'
import { rowCountMigration } from './row-counter.js'

/** Audit columns every table carries, hand-made tables included. */
export function withAudit<T extends string>(table: CreateTableBuilder<T, never>, kind: DbKind) {
  const time = kind === 'postgres' ? 'timestamp(0)' : 'text'
  return table
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_by_id', 'varchar(64)')
    .addColumn('create_time', time)
    .addColumn('update_by', 'varchar(64)')
    .addColumn('update_by_id', 'varchar(64)')
    .addColumn('update_time', time)
}

/**
 * Versioned migrations of the tables that are not described by an entity file (sessions, link tables).
 * Entity tables are brought up to their files by entity-tables.ts after these run.
 */
export function platformMigrations(kind: DbKind): Record<string, Migration> {
  const time = kind === 'postgres' ? 'timestamp(0)' : 'text'
  return {
    '0001_sessions_and_codes': {
      async up(db: Db) {
        await db.schema
          .createTable('sys_session')
          .addColumn('token', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('ip', 'varchar(64)')
          .addColumn('last_active_time', time, (c) => c.notNull())
          .addColumn('expire_time', time, (c) => c.notNull())
          .$call((t) => withAudit(t, kind))
          .execute()
        await db.schema.createIndex('ix_sys_session_user').on('sys_session').columns(['tenant_id', 'user_id']).execute()
        await db.schema
          .createTable('sys_captcha')
          .addColumn('sn', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('code', 'varchar(16)', (c) => c.notNull())
          .addColumn('expire_time', time, (c) => c.notNull())
          .$call((t) => withAudit(t, kind))
          .execute()
        await db.schema
          .createTable('sys_login_failure')
          .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('username', 'varchar(64)', (c) => c.notNull())
          .addColumn('day', 'varchar(10)', (c) => c.notNull())
          .addColumn('failures', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('pk_sys_login_failure', ['tenant_id', 'username', 'day'])
          .$call((t) => withAudit(t, kind))
          .execute()
        await db.schema
          .createTable('sys_verify_code')
          .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('target', 'varchar(128)', (c) => c.notNull())
          .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
          .addColumn('code', 'varchar(16)', (c) => c.notNull())
          .addColumn('expire_time', time, (c) => c.notNull())
          .$call((t) => withAudit(t, kind))
          .execute()
        await db.schema
          .createTable('sys_module_tenant')
          .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('module_id', 'varchar(64)', (c) => c.notNull())
          .addPrimaryKeyConstraint('pk_sys_module_tenant', ['tenant_id', 'module_id'])
          .$call((t) => withAudit(t, kind))
          .execute()
      },
    },
    // Verification codes become one row per tenant, target and purpose carrying its own guards: the
    // code is stored as a SHA-256 digest, wrong tries are counted on the row (burned at 5), and the
    // issue limits (once a minute, a few an hour) live beside it, so every server process sees the
    // same counters and each guard is one conditional statement. Codes live five minutes, so the old
    // rows are simply dropped.
    '0002_verify_code_guards': {
      async up(db: Db) {
        await db.schema.dropTable('sys_verify_code').execute()
        await db.schema
          .createTable('sys_verify_code')
          .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('target', 'varchar(160)', (c) => c.notNull())
          .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
          .addColumn('code_hash', 'varchar(64)')
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('expire_time', time, (c) => c.notNull())
          .addColumn('last_sent_time', time, (c) => c.notNull())
          .addColumn('window_start', time, (c) => c.notNull())
          .addColumn('sent_count', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('pk_sys_verify_code', ['tenant_id', 'target', 'purpose'])
          .$call((t) => withAudit(t, kind))
          .execute()
      },
    },
    // Row counters of the listed tables (row-counter.ts): the triggers come with the entity tables.
    '0003_row_count': rowCountMigration(kind),
  }
}

export function tenantMigrations(kind: DbKind): Record<string, Migration> {
  const link = (db: Db, table: string, a: string, b: string) =>
    db.schema
      .createTable(table)
      .addColumn(a, 'varchar(64)', (c) => c.notNull())
      .addColumn(b, 'varchar(64)', (c) => c.notNull())
      .addPrimaryKeyConstraint(`pk_${table}`, [a, b])
      .$call((t) => withAudit(t, kind))
      .execute()
  return {
    '0001_rbac_links': {
      async up(db: Db) {
        await link(db, 'sys_user_role', 'user_id', 'role_id')
        await link(db, 'sys_role_menu', 'role_id', 'menu_id')
        await link(db, 'sys_menu_collect', 'user_id', 'menu_id')
        await db.schema.createIndex('ix_sys_user_role_role').on('sys_user_role').column('role_id').execute()
      },
    },
    // Document numbers: one counter row per day (all document kinds share it, as the ancestor's FLOW
    // generator); incremented inside the document's transaction, so numbers are unique across processes.
    '0002_document_number': {
      async up(db: Db) {
        await db.schema
          .createTable('sys_document_number')
          .addColumn('day', 'varchar(8)', (c) => c.primaryKey())
          .addColumn('value', 'bigint', (c) => c.notNull())
          .execute()
      },
    },
    // Row counters of the listed tables (row-counter.ts): the triggers come with the entity tables.
    '0003_row_count': rowCountMigration(kind),
  }
}

export async function migrate(db: Db, migrations: Record<string, Migration>, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
  })
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`)
}
