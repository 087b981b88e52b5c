import { sql, type CreateTableBuilder, type Migration } from 'kysely'
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
    // API tokens (platform/api-tokens.ts): found by the SHA-256 digest of the token before the tenant is
    // known, so they live beside the sessions; the rate window is counted on the row by one guarded update.
    '0004_api_tokens': {
      async up(db: Db) {
        await db.schema
          .createTable('sys_api_token')
          .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('digest', 'varchar(64)', (c) => c.notNull().unique())
          .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('name', 'varchar(64)', (c) => c.notNull())
          .addColumn('permissions', 'text', (c) => c.notNull())
          .addColumn('expire_time', time, (c) => c.notNull())
          .addColumn('last_used_time', time)
          .addColumn('window_start', time, (c) => c.notNull())
          .addColumn('window_count', 'integer', (c) => c.notNull().defaultTo(0))
          .$call((t) => withAudit(t, kind))
          .execute()
        await db.schema.createIndex('ix_sys_api_token_user').on('sys_api_token').columns(['tenant_id', 'user_id']).execute()
      },
    },
    // PostgreSQL: every delete of a session (logout, signed out everywhere, expiry, by hand) and every change
    // that may end it sooner (expiry, owner, activity moved back) notifies the token's SHA-256 when it commits,
    // so each process drops its cached read at once (platform/session-cache.ts). Activity moving forward (the
    // once-a-minute touch) does not notify.
    '0005_session_ended_notify': {
      async up(db: Db) {
        if (kind !== 'postgres') return
        await sql`create or replace function platform.session_ended() returns trigger language plpgsql as $body$
          begin
            perform pg_notify('session_ended', encode(sha256(convert_to(old.token, 'UTF8')), 'hex'));
            return null;
          end $body$`.execute(db)
        await sql`create trigger session_ended after delete on platform.sys_session
          for each row execute function platform.session_ended()`.execute(db)
        await sql`create trigger session_changed after update on platform.sys_session
          for each row when (new.token <> old.token or new.tenant_id <> old.tenant_id or new.user_id <> old.user_id
            or new.expire_time <> old.expire_time or new.last_active_time < old.last_active_time)
          execute function platform.session_ended()`.execute(db)
      },
    },
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

/**
 * One set of versioned migrations and the table recording which of them ran (each module that owns
 * platform tables keeps its own set and table, so their names never collide).
 */
export interface MigrationSet {
  /** Who owns the set, for messages ("platform", "tenant 1000", "bus"…). */
  label: string
  migrations: Record<string, Migration>
  /** The bookkeeping table: Kysely's layout (name, timestamp), so databases made before this migrator open as they are. */
  table?: string
  /** PostgreSQL schema of `db` (the bookkeeping table is locked by its qualified name). */
  schema?: string
}

const DEFAULT_TABLE = 'kysely_migration'

/** A database one of whose migration sets holds names this program does not know: made by a newer version. */
export class NewerDatabaseError extends Error {}

/**
 * Applies the migrations of `set` that its table does not list, in name order, and records each name.
 *
 * The rules (ARCHITECTURE: upgrades keep every row):
 * - Forward only: a migration is never edited or removed once released, and has no `down`. Each later
 *   change of a hand-made table, and each change of an entity table the start-up sync cannot make
 *   (it only creates tables and adds columns and indexes: a rename, a retype, a data fix, a drop), adds
 *   its own migration with the next number. test/api/upgrade.test.ts opens a database made by an older
 *   release and must keep passing.
 * - Pending names run in name order even when one sorts before a name already applied (two branches
 *   merged), so a migration never depends on one with a higher number.
 * - Migrations run before the entity tables are synced, so one that touches an entity table must check
 *   that the table exists (`hasTable`; the set's factory is given what it needs, e.g. the schema): a new
 *   database gets the table from its file, already in the new shape.
 * - All pending migrations of a set run in ONE transaction with their records (SQLite and PostgreSQL
 *   both roll DDL back): a failure leaves the database exactly as it was, and the next start tries again.
 * - The bookkeeping table is locked for the transaction on PostgreSQL, so processes starting together
 *   apply each migration once; the later one finds them recorded.
 * - A database that lists a migration this program lacks was made by a newer version: refuse to start,
 *   before changing anything, rather than run old code on a newer layout.
 */
export async function migrate(db: Db, set: MigrationSet): Promise<void> {
  const table = set.table ?? DEFAULT_TABLE
  await ensureBookkeepingTable(db, table, set.schema)
  await db.transaction().execute(async (trx) => {
    if (set.schema) await sql`lock table ${sql.id(set.schema, table)} in share row exclusive mode`.execute(trx)
    const applied = new Set((await trx.selectFrom(table).select('name').execute()).map((r) => String(r.name)))
    const unknown = [...applied].filter((name) => !(name in set.migrations)).sort()
    if (unknown.length) {
      throw new NewerDatabaseError(
        `The database was made by a newer version of this program: its ${set.label} migrations ${unknown.join(', ')} ` +
          `are unknown here (table ${table}). Start the version that made them (or a newer one), or restore the ` +
          `backup taken before the upgrade. Nothing was changed.`,
      )
    }
    for (const name of Object.keys(set.migrations).sort()) {
      if (applied.has(name)) continue
      try {
        await set.migrations[name].up(trx)
      } catch (error) {
        throw new Error(`${set.label} migration ${name} failed; this start's migrations were rolled back: ${(error as Error).message}`, { cause: error })
      }
      await trx.insertInto(table).values({ name, timestamp: new Date().toISOString() }).execute()
    }
  })
}

async function ensureBookkeepingTable(db: Db, table: string, schema?: string): Promise<void> {
  try {
    await db.schema
      .createTable(table)
      .ifNotExists()
      .addColumn('name', 'varchar(255)', (c) => c.notNull().primaryKey())
      .addColumn('timestamp', 'varchar(255)', (c) => c.notNull())
      .execute()
  } catch (error) {
    // Two PostgreSQL processes creating it at the same moment: one of them loses on the catalog's unique index.
    if (!(await hasTable(db, table, schema))) throw error
  }
}

/** Whether `table` exists in the SQLite file of `db`, or in PostgreSQL `schema`. */
export async function hasTable(db: Db, table: string, schema?: string): Promise<boolean> {
  const found = schema
    ? await sql`select 1 from information_schema.tables where table_schema = ${schema} and table_name = ${table}`.execute(db)
    : await sql`select 1 from sqlite_master where type = 'table' and name = ${table}`.execute(db)
  return found.rows.length > 0
}
