import { sql, type Migration } from 'kysely'
import type { Db, DbKind } from './dialect.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { hasOperation } from '../../shared/metadata/operation-keys.js'

/**
 * Exact row counts without scanning: the pager's unfiltered `totalCount` of a large table reads a
 * counter instead of `count(*)`. Each tenant has its own database (SQLite file or PostgreSQL schema),
 * so the counter of a table lives beside it, in `sys_row_count` of the same database.
 *
 * The counter is kept by database triggers, inside the writing transaction, so every write path
 * (the store, domain code's own inserts, imports, seeds, raw SQL) keeps it exact and a rolled-back
 * write rolls it back too:
 * - SQLite: row triggers after insert and delete (one writer at a time, so one row per table).
 * - PostgreSQL: statement triggers with transition tables (one update per statement, not per row),
 *   and a truncate trigger. One counter row per table would serialise every concurrent writer of the
 *   table on that row until commit (and add lock waits, hence possible deadlocks, between transactions
 *   that never waited for each other before). So a table's count is split over "stripes": a writer
 *   adds to the first stripe no other transaction holds (`for update skip locked`), or inserts a new
 *   stripe when all are held. Writers never wait on a counter; the stripes of a table number at most
 *   its peak of concurrent writers, are summed on read and merged at start-up.
 *
 * A table's triggers and its first counter row are created in one transaction that holds the table
 * against writers (SHARE ROW EXCLUSIVE), so the initial `count(*)` is exact. A table without counter
 * rows is simply not counted (the triggers add nothing when no row exists), and the list falls back
 * to `count(*)`; the next start-up counts it again. `INSERT OR REPLACE` on SQLite would bypass the
 * delete trigger (without recursive_triggers); nothing in the server uses it.
 */
export const ROW_COUNT_TABLE = 'sys_row_count'

const TRIGGER_PREFIX = 'row_count_'

/**
 * Tables whose list pages through the generic store (master-data and document queries, pickers):
 * the ones an unfiltered `totalCount` is asked of. Lines, ledgers and logs listed by their own routes
 * are left without triggers, so their heavy write paths pay nothing.
 */
export function hasRowCounter(entity: EntityModel): boolean {
  if (entity.file.singleton) return false
  if (entity.file.document) return Boolean(entity.file.api)
  if (hasOperation(entity, 'query') && entity.file.views?.list?.paged !== false) return true
  return Boolean(entity.file.views?.picker) && !entity.parentField
}

/** The counter table (a versioned migration of the platform and of every tenant database). */
export function rowCountMigration(kind: DbKind): Migration {
  return {
    async up(db: Db) {
      await db.schema
        .createTable(ROW_COUNT_TABLE)
        .addColumn('id', kind === 'postgres' ? 'bigserial' : 'integer', (c) => (kind === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('table_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema.createIndex(`ix_${ROW_COUNT_TABLE}_table`).on(ROW_COUNT_TABLE).column('table_name').execute()
    },
  }
}

/** The exact number of rows of `table` from its counter, or undefined when the table is not counted. */
export async function countedRows(db: Db, table: string): Promise<number | undefined> {
  const row = await db
    .selectFrom(ROW_COUNT_TABLE)
    .select((eb) => [eb.fn.sum<number | string | null>('n').as('n'), eb.fn.countAll<number | string>().as('stripes')])
    .where('table_name', '=', table)
    .executeTakeFirst()
  return row && Number(row.stripes) > 0 ? Number(row.n) : undefined
}

const quoteId = (name: string) => `"${name.replace(/"/g, '""')}"`
const quoteText = (text: string) => `'${text.replace(/'/g, "''")}'`

/**
 * Brings the counters of one database to `tables`: triggers and an initial count for each table that
 * lacks them, stripes merged, triggers of tables no longer counted dropped with their rows.
 * `schema` is the PostgreSQL schema of `db` (triggers and functions name it explicitly).
 */
export async function installRowCounters(db: Db, kind: DbKind, schema: string | undefined, tables: readonly string[]): Promise<void> {
  if (kind === 'postgres') {
    if (!schema) throw new Error('row counters on PostgreSQL need the schema')
    await installPostgres(db, schema, tables)
  } else await installSqlite(db, tables)
}

async function stripesByTable(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom(ROW_COUNT_TABLE)
    .select((eb) => ['table_name', eb.fn.countAll<number | string>().as('stripes')])
    .groupBy('table_name')
    .execute()
  return new Map(rows.map((r) => [String(r.table_name), Number(r.stripes)]))
}

/** Replaces whatever counter rows `table` has by one row holding its exact count (the caller holds the table against writers). */
async function recount(trx: Db, table: string): Promise<void> {
  await trx.deleteFrom(ROW_COUNT_TABLE).where('table_name', '=', table).execute()
  const counted = await trx.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()
  await trx.insertInto(ROW_COUNT_TABLE).values({ table_name: table, n: Number(counted.n) }).execute()
}

/** Merges the stripes of `table` into one row (the caller holds the table against writers, so no stripe is held). */
async function merge(trx: Db, table: string): Promise<void> {
  const gone = await trx.deleteFrom(ROW_COUNT_TABLE).where('table_name', '=', table).returning('n').execute()
  const total = gone.reduce((sum, r) => sum + Number(r.n), 0)
  await trx.insertInto(ROW_COUNT_TABLE).values({ table_name: table, n: total }).execute()
}

async function installSqlite(db: Db, tables: readonly string[]): Promise<void> {
  const triggers = await db
    .selectFrom('sqlite_master')
    .select(['name', 'tbl_name'])
    .where('type', '=', 'trigger')
    .where('name', 'like', `${TRIGGER_PREFIX}%`)
    .execute()
  const triggered = new Map<string, Set<string>>()
  for (const t of triggers) {
    const set = triggered.get(String(t.tbl_name)) ?? new Set<string>()
    set.add(String(t.name))
    triggered.set(String(t.tbl_name), set)
  }
  const stripes = await stripesByTable(db)
  const wanted = new Set(tables)
  for (const [table, names] of triggered) {
    if (wanted.has(table)) continue
    await db.transaction().execute(async (trx) => {
      for (const name of names) await sql`drop trigger if exists ${sql.id(name)}`.execute(trx)
      await trx.deleteFrom(ROW_COUNT_TABLE).where('table_name', '=', table).execute()
    })
  }
  for (const table of tables) {
    const insert = `${TRIGGER_PREFIX}insert_${table}`
    const remove = `${TRIGGER_PREFIX}delete_${table}`
    const has = triggered.get(table)
    if (has?.has(insert) && has.has(remove) && stripes.get(table) === 1) continue
    // The first statement takes SQLite's write lock, so the count below sees every committed row and no other.
    await db.transaction().execute(async (trx) => {
      const name = sql.raw(quoteText(table))
      await sql`create trigger if not exists ${sql.id(insert)} after insert on ${sql.id(table)}
        begin update ${sql.id(ROW_COUNT_TABLE)} set n = n + 1 where table_name = ${name}; end`.execute(trx)
      await sql`create trigger if not exists ${sql.id(remove)} after delete on ${sql.id(table)}
        begin update ${sql.id(ROW_COUNT_TABLE)} set n = n - 1 where table_name = ${name}; end`.execute(trx)
      await recount(trx, table)
    })
  }
}

/** The trigger functions of one schema (names qualified: a trigger runs under the writer's search_path). */
function postgresFunctions(schema: string): string[] {
  const s = quoteId(schema)
  const counts = `${s}.${quoteId(ROW_COUNT_TABLE)}`
  return [
    `create or replace function ${s}.row_count_add(tab text, delta bigint) returns void language plpgsql as $body$
    begin
      update ${counts} c set n = c.n + delta
       where c.id = (select s.id from ${counts} s where s.table_name = tab order by s.id limit 1 for update skip locked);
      if not found then
        -- every stripe is held by another writer: a new one; none at all means the table is not counted yet
        insert into ${counts} (table_name, n)
          select tab, delta where exists (select 1 from ${counts} s where s.table_name = tab);
      end if;
    end $body$`,
    `create or replace function ${s}.row_count_inserted() returns trigger language plpgsql as $body$
    declare delta bigint;
    begin
      select count(*) into delta from row_count_new;
      if delta > 0 then perform ${s}.row_count_add(tg_table_name, delta); end if;
      return null;
    end $body$`,
    `create or replace function ${s}.row_count_deleted() returns trigger language plpgsql as $body$
    declare delta bigint;
    begin
      select count(*) into delta from row_count_old;
      if delta > 0 then perform ${s}.row_count_add(tg_table_name, -delta); end if;
      return null;
    end $body$`,
    `create or replace function ${s}.row_count_truncated() returns trigger language plpgsql as $body$
    begin
      -- TRUNCATE holds the table exclusively: no writer holds a stripe now.
      if exists (select 1 from ${counts} where table_name = tg_table_name) then
        delete from ${counts} where table_name = tg_table_name;
        insert into ${counts} (table_name, n) values (tg_table_name, 0);
      end if;
      return null;
    end $body$`,
  ]
}

const PG_TRIGGERS = {
  [`${TRIGGER_PREFIX}insert`]: 'after insert on {t} referencing new table as row_count_new for each statement execute function {s}.row_count_inserted()',
  [`${TRIGGER_PREFIX}delete`]: 'after delete on {t} referencing old table as row_count_old for each statement execute function {s}.row_count_deleted()',
  [`${TRIGGER_PREFIX}truncate`]: 'after truncate on {t} for each statement execute function {s}.row_count_truncated()',
}

/** The counter triggers present in a schema, by table. */
async function postgresTriggers(db: Db, schema: string): Promise<Map<string, Set<string>>> {
  const { rows } = await sql<{ table_name: string; trigger_name: string }>`
    select c.relname as table_name, t.tgname as trigger_name
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = ${schema} and t.tgname like ${`${TRIGGER_PREFIX}%`}`.execute(db)
  const triggered = new Map<string, Set<string>>()
  for (const r of rows) triggered.set(r.table_name, (triggered.get(r.table_name) ?? new Set<string>()).add(r.trigger_name))
  return triggered
}

async function installPostgres(db: Db, schema: string, tables: readonly string[]): Promise<void> {
  const s = quoteId(schema)
  // Several server processes may start at once: one installs a schema's counters at a time.
  const serialised = (trx: Db) => sql`select pg_advisory_xact_lock(hashtext(${`row_count:${schema}`}))`.execute(trx)
  await db.transaction().execute(async (trx) => {
    await serialised(trx)
    for (const statement of postgresFunctions(schema)) await sql.raw(statement).execute(trx)
  })
  const triggered = await postgresTriggers(db, schema)
  const stripes = await stripesByTable(db)
  const wanted = new Set(tables)
  for (const [table, names] of triggered) {
    if (wanted.has(table)) continue
    await db.transaction().execute(async (trx) => {
      await serialised(trx)
      for (const name of names) await sql.raw(`drop trigger if exists ${quoteId(name)} on ${s}.${quoteId(table)}`).execute(trx)
      await trx.deleteFrom(ROW_COUNT_TABLE).where('table_name', '=', table).execute()
    })
  }
  for (const table of tables) {
    const complete = Object.keys(PG_TRIGGERS).every((name) => triggered.get(table)?.has(name))
    if (complete && stripes.get(table) === 1) continue
    await db.transaction().execute(async (trx) => {
      await serialised(trx)
      const t = `${s}.${quoteId(table)}`
      // Writers wait (readers do not) until the triggers exist and the count is taken: nothing is missed or counted twice.
      await sql.raw(`lock table ${t} in share row exclusive mode`).execute(trx)
      const { rows } = await sql<{ tgname: string }>`
        select tgname from pg_trigger where tgrelid = ${t}::regclass and tgname like ${`${TRIGGER_PREFIX}%`}`.execute(trx)
      const present = new Set(rows.map((r) => r.tgname))
      for (const [name, body] of Object.entries(PG_TRIGGERS)) {
        if (!present.has(name)) await sql.raw(`create trigger ${quoteId(name)} ${body.replace('{t}', t).replace('{s}', s)}`).execute(trx)
      }
      const now = await trx.selectFrom(ROW_COUNT_TABLE).select('id').where('table_name', '=', table).execute()
      if (now.length === 0) await recount(trx, table)
      else if (now.length > 1) await merge(trx, table)
    })
  }
}
