import { createHash } from 'node:crypto'
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { Db, DbKind } from './dialect.js'
import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'

/**
 * Indexes behind the text conditions the schemas declare searchable (list search forms and pickers:
 * `contains` and `startsWith` on code, name, short name, SKU code…), derived from the same files, so a
 * new searchable field gets its index at the next migration and a hand-kept list never drifts.
 *
 * The index only narrows the candidates; the list keeps its plain LIKE / ILIKE beside it, so the rows
 * found are exactly those the spec's LIKE semantics find (substring, case-insensitive for Latin, exact
 * for Chinese, `%` and `_` literal), whatever the index returns.
 *
 * - contains, PostgreSQL: a `pg_trgm` GIN index over the stored `platform.search_key(column)` (searchKeyColumn). pg_trgm only
 *   makes trigrams of characters the database's ctype calls alphanumeric, which under the C ctype (the
 *   test and many production servers) leaves Chinese out entirely: `show_trgm('商品名称')` is empty, so a
 *   plain trigram index would scan everything for a Chinese search. `search_key` lower-cases the text
 *   and spells every character outside [0-9a-z] in base-36 digits, character by character, so "text
 *   contains pattern" implies "key(text) contains key(pattern)" and every character takes part in the
 *   trigrams, in any locale. A search asks the index only for the trigrams across characters
 *   (trigramPieces). Without the extension (the role may not create it) no index is made, a warning
 *   is logged, and the list runs its plain ILIKE.
 * - contains, SQLite: an FTS5 trigram table (`case_sensitive 0`) with the entity table as external
 *   content, keyed by the table's rowid (ids are text, so the implicit rowid is the key), kept in step
 *   by triggers; the list adds `rowid in (select rowid from … match '"pattern"')`. Trigrams need three
 *   characters, so shorter patterns run the plain LIKE. A VACUUM may renumber the rowids of tables
 *   without an INTEGER PRIMARY KEY: after one, run `insert into <table>__search(<table>__search)
 *   values('rebuild')` (the app never vacuums).
 * - startsWith: a b-tree that serves a case-insensitive prefix range: `lower(column)
 *   text_pattern_ops` (PostgreSQL, queried as `lower(column) like lower(prefix) || '%'`) and `column
 *   collate nocase` (SQLite, whose LIKE is ASCII case-insensitive like NOCASE).
 */

export type MatchKind = 'contains' | 'startsWith'

/** Searchable text columns of an entity by match kind, from its list query and picker filters. */
export interface SearchColumns {
  contains: FieldModel[]
  startsWith: FieldModel[]
}

const TEXT_TYPES = new Set(['string', 'text'])
const cache = new WeakMap<EntityModel, SearchColumns>()

export function searchColumns(entity: EntityModel): SearchColumns {
  let found = cache.get(entity)
  if (found) return found
  const views = entity.file.views ?? {}
  const params = [...(views.list?.query ?? []), ...(views.picker?.filters ?? [])]
  found = { contains: [], startsWith: [] }
  for (const p of params) {
    if (p.forced !== undefined || (p.op !== 'contains' && p.op !== 'startsWith')) continue
    const field = entity.byName.get(p.field)
    if (!field || field.virtual || !TEXT_TYPES.has(field.type)) continue
    const list = found[p.op]
    if (!list.some((f) => f.column === field.column)) list.push(field)
  }
  for (const list of [found.contains, found.startsWith]) list.sort((a, b) => a.column.localeCompare(b.column))
  cache.set(entity, found)
  return found
}

/** Whether the PostgreSQL server gave us pg_trgm (set by the migration; undefined before it ran). */
let trigramReady: boolean | undefined

/** An index name within PostgreSQL's 63 characters, distinct even when the table and column are long. */
function indexName(prefix: string, table: string, column: string): string {
  const name = `${prefix}_${table}_${column}`
  if (name.length <= 63) return name
  return `${name.slice(0, 54)}_${createHash('sha1').update(name).digest('hex').slice(0, 8)}`
}

export const ftsTable = (entity: EntityModel) => `${entity.table}__search`

/**
 * PostgreSQL: the stored search key of a contains column (`name__key`), generated from it on every write.
 * The GIN index is over this column rather than over the expression, so the recheck of each candidate row
 * reads the key instead of running the plpgsql function again: a broad Chinese search (2,000 candidates
 * of 1,000,000 rows) took 250-380 ms over the expression and 110-150 ms over the column, same load.
 */
export const searchKeyColumn = (field: FieldModel) => `${field.column}__key`

/**
 * Brings an entity's search indexes up to its file (called by the table sync after the table exists;
 * `columns`: the table's columns before the sync, none for a table it has just created; `indexes`: the
 * database's index names before the sync).
 */
export async function syncSearchIndexes(
  db: Db,
  kind: DbKind,
  entity: EntityModel,
  columns: ReadonlySet<string> | undefined,
  indexes: ReadonlySet<string>,
): Promise<void> {
  const { contains, startsWith } = searchColumns(entity)
  // An index already there (read once by the table sync) is not asked for again.
  const index = (name: string) => (indexes.has(name) ? undefined : db.schema.createIndex(name).ifNotExists())
  if (kind === 'postgres') {
    for (const f of startsWith)
      await index(indexName('sp', entity.table, f.column))?.on(entity.table).expression(sql`lower(${sql.ref(f.column)}) text_pattern_ops`).execute()
    if (contains.length && (await trigramOf(db))) {
      const opclass = sql.raw(`${quoteId(trigramSchema)}.gin_trgm_ops`)
      for (const f of contains) {
        const key = searchKeyColumn(f)
        if (!columns?.has(key))
          await db.schema.alterTable(entity.table).addColumn(key, 'text', (c) => c.generatedAlwaysAs(sql`platform.search_key(${sql.ref(f.column)})`).stored()).execute()
        await index(indexName('sk', entity.table, f.column))?.on(entity.table).using('gin').expression(sql`${sql.ref(key)} ${opclass}`).execute()
        // The index over the expression (before the stored key) would only cost writes now.
        if (indexes.has(indexName('sx', entity.table, f.column)))
          await db.schema.dropIndex(indexName('sx', entity.table, f.column)).ifExists().execute()
      }
    }
    return
  }
  for (const f of startsWith)
    await index(indexName('sp', entity.table, f.column))?.on(entity.table).expression(sql`${sql.ref(f.column)} collate nocase`).execute()
  await syncFts(db, entity, contains)
}

const quoteId = (name: string) => `"${name.replace(/"/g, '""')}"`
let trigramSchema = 'public'

/**
 * The search key (see above). Each character outside [0-9a-z] becomes three base-36 digits of its code
 * point (modulo 36³), so a Chinese character is one aligned trigram and the trigrams across two
 * characters are as selective as the pair: far fewer rows per trigram than a hex spelling gives.
 * Collisions only add candidates, which the LIKE beside it removes. plpgsql with an array, not string
 * concatenation, so a long text stays linear. Changing the body rebuilds the indexes over it (ensureTrigram).
 */
const SEARCH_KEY_BODY = `
declare
  digits constant text := '0123456789abcdefghijklmnopqrstuvwxyz';
  parts text[] := '{}';
  i int := 0;
  c text;
  n int;
begin
  foreach c in array pg_catalog.regexp_split_to_array(pg_catalog.lower(s), '') loop
    continue when c = '';
    i := i + 1;
    if c collate "C" between '0' and '9' or c collate "C" between 'a' and 'z' then
      parts[i] := c;
    else
      n := pg_catalog.ascii(c) % 46656;
      parts[i] := pg_catalog.substr(digits, n / 1296 + 1, 1) || pg_catalog.substr(digits, n % 1296 / 36 + 1, 1) || pg_catalog.substr(digits, n % 36 + 1, 1);
    end if;
  end loop;
  return pg_catalog.array_to_string(parts, '');
end
`
const SEARCH_KEY = `create or replace function platform.search_key(s text) returns text
  language plpgsql immutable strict parallel safe as $$${SEARCH_KEY_BODY}$$`

const keySource = async (db: Db) =>
  (await sql<{ src: string }>`select p.prosrc as src from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'platform' and p.proname = 'search_key'`.execute(db)).rows[0]?.src

/** Once per database handle (a tenant's migration syncs every entity through the same one). */
const ensured = new WeakMap<Db, Promise<boolean>>()
function trigramOf(db: Db): Promise<boolean> {
  let done = ensured.get(db)
  if (!done) {
    done = ensureTrigram(db)
    done.catch(() => ensured.delete(db))
    ensured.set(db, done)
  }
  return done
}

async function ensureTrigram(db: Db): Promise<boolean> {
  const installed = async () =>
    (await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)).rows[0]?.schema
  let schema = await installed()
  if (!schema) {
    try {
      await sql`create extension if not exists pg_trgm`.execute(db)
    } catch (error) {
      // Two migrations racing, or a role that may not create extensions: look again, then give up loudly.
      schema = await installed()
      if (!schema) {
        if (trigramReady !== false)
          console.warn(`[db] pg_trgm is not available (${(error as Error).message}); text searches run without an index`)
        trigramReady = false
        return false
      }
    }
    schema = await installed()
  }
  trigramSchema = schema as string
  const present = await keySource(db)
  if (present !== SEARCH_KEY_BODY) {
    await sql`create schema if not exists platform`.execute(db)
    try {
      await sql.raw(SEARCH_KEY).execute(db)
    } catch (error) {
      // Another process created it at the same moment ("tuple concurrently updated"): fine if it is there now.
      if ((await keySource(db)) !== SEARCH_KEY_BODY) throw error
    }
    // Keys made by an older function would miss rows: rewrite every table with a stored key, in all schemas
    // (an UPDATE computes a row's generated columns again), and its indexes follow.
    if (present !== undefined) {
      const stale = await sql<{ schema: string; table: string }>`select distinct table_schema as schema, table_name as table from information_schema.columns where generation_expression like '%search_key(%'`.execute(db)
      for (const t of stale.rows) await sql`update ${sql.id(t.schema, t.table)} set id = id`.execute(db)
    }
  }
  trigramReady = true
  return true
}

/**
 * The FTS5 table of an entity's contains columns, its triggers, and its content. Recreated (and
 * rebuilt from the table) when the set of columns changes; dropped when none is left.
 */
async function syncFts(db: Db, entity: EntityModel, fields: FieldModel[]): Promise<void> {
  const fts = ftsTable(entity)
  const columns = fields.map((f) => quoteId(f.column))
  const create = `CREATE VIRTUAL TABLE ${quoteId(fts)} USING fts5(${columns.join(', ')}, content=${quoteId(entity.table)}, content_rowid='rowid', tokenize='trigram case_sensitive 0')`
  const existing = (await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${fts}`.execute(db)).rows[0]?.sql
  if (existing === create) return
  const triggers = ['ai', 'ad', 'au'].map((s) => quoteId(`${fts}_${s}`))
  for (const t of triggers) await sql.raw(`DROP TRIGGER IF EXISTS ${t}`).execute(db)
  if (existing) await sql.raw(`DROP TABLE ${quoteId(fts)}`).execute(db)
  if (!fields.length) return
  const table = quoteId(entity.table)
  const news = fields.map((f) => `new.${quoteId(f.column)}`).join(', ')
  const olds = fields.map((f) => `old.${quoteId(f.column)}`).join(', ')
  const list = columns.join(', ')
  await db.transaction().execute(async (trx) => {
    await sql.raw(create).execute(trx)
    await sql.raw(`CREATE TRIGGER ${triggers[0]} AFTER INSERT ON ${table} BEGIN INSERT INTO ${quoteId(fts)}(rowid, ${list}) VALUES (new.rowid, ${news}); END`).execute(trx)
    await sql.raw(`CREATE TRIGGER ${triggers[1]} AFTER DELETE ON ${table} BEGIN INSERT INTO ${quoteId(fts)}(${quoteId(fts)}, rowid, ${list}) VALUES ('delete', old.rowid, ${olds}); END`).execute(trx)
    await sql.raw(`CREATE TRIGGER ${triggers[2]} AFTER UPDATE OF ${list} ON ${table} BEGIN INSERT INTO ${quoteId(fts)}(${quoteId(fts)}, rowid, ${list}) VALUES ('delete', old.rowid, ${olds}); INSERT INTO ${quoteId(fts)}(rowid, ${list}) VALUES (new.rowid, ${news}); END`).execute(trx)
    await sql.raw(`INSERT INTO ${quoteId(fts)}(${quoteId(fts)}) VALUES ('rebuild')`).execute(trx)
  })
}

/** Characters, not UTF-16 units: a trigram is three characters. */
const charCount = (text: string) => [...text].length

const KEY_DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'

/**
 * `search_key(text)` as PostgreSQL writes it, one part per character, or undefined when the server's
 * lower case of a character might differ from JavaScript's (a cased letter outside ASCII: its mapping
 * depends on the database's locale). ASCII letters lower-case alike everywhere; caseless characters
 * (Chinese, digits, punctuation) are spelled from their code point, as `ascii(c)` gives it.
 */
export function keyParts(text: string): string[] | undefined {
  const parts: string[] = []
  for (const c of text) {
    const code = c.codePointAt(0) as number
    if (code < 128) {
      const lower = c.toLowerCase()
      if ((lower >= '0' && lower <= '9') || (lower >= 'a' && lower <= 'z')) {
        parts.push(lower)
        continue
      }
    } else if (c.toLowerCase() !== c || c.toUpperCase() !== c) return undefined
    const n = code % 46656
    parts.push(KEY_DIGITS[Math.floor(n / 1296)] + KEY_DIGITS[Math.floor((n % 1296) / 36)] + KEY_DIGITS[n % 36])
  }
  return parts
}

/**
 * The pieces of the pattern's key that a contains search asks the trigram index for: every trigram of
 * the key except those that spell exactly one character. Such a trigram stands for a single character,
 * and common characters (色, 的, a space) are in a large share of the rows: GIN reads each trigram's
 * whole posting list, so the search "红色保温杯" spent 26 ms of its 36 in the index over the 5 character
 * trigrams, against 8 ms over the 8 trigrams across characters, which are nearly as selective as
 * the pairs of characters they span (bench list-query). The pieces are runs of consecutive kept
 * trigrams; a key with no trigram across characters (one Chinese character) keeps its own.
 * The rows still go through the plain LIKE, so fewer trigrams only ever add candidates.
 */
export function trigramPieces(parts: readonly string[]): string[] {
  const key = parts.join('')
  const single = new Set<number>()
  let at = 0
  for (const p of parts) {
    if (p.length === 3) single.add(at)
    at += p.length
  }
  const pieces = new Set<string>()
  let start = -1
  for (let i = 0; i + 3 <= key.length; i++) {
    if (!single.has(i)) {
      if (start < 0) start = i
    } else if (start >= 0) {
      pieces.add(key.slice(start, i + 2))
      start = -1
    }
  }
  if (start >= 0) pieces.add(key.slice(start))
  return pieces.size ? [...pieces] : [key]
}

/**
 * The predicate over the stored key (`alias.column__key`) that lets the trigram index narrow a contains
 * search for `text`: the key's pieces (trigramPieces) when JavaScript spells the key exactly as the server
 * does, else the server's whole key of the text; undefined for a key shorter than a trigram (a text
 * JavaScript cannot spell holds a letter outside ASCII, three digits at least).
 */
function keyContains(alias: string, field: FieldModel, text: string): Expression<SqlBool> | undefined {
  const key = sql.ref(`${alias}.${searchKeyColumn(field)}`)
  const parts = keyParts(text)
  if (!parts) return sql<SqlBool>`${key} like '%' || platform.search_key(${text}) || '%'`
  if (parts.join('').length < 3) return undefined
  const pieces = trigramPieces(parts).map((piece) => sql<SqlBool>`${key} like ${`%${piece}%`}`)
  return pieces.length === 1 ? pieces[0] : sql<SqlBool>`(${sql.join(pieces, sql` and `)})`
}

/**
 * The index predicate that narrows a text condition on `alias.column`, to be ANDed with the plain
 * LIKE, or undefined when the column has no index for that match or the pattern is too short for it.
 * `text` is the user's text, trimmed and unescaped; `escaped` the same with LIKE wildcards escaped.
 */
export function searchNarrowing(
  kind: DbKind,
  entity: EntityModel,
  field: FieldModel,
  alias: string,
  op: MatchKind,
  text: string,
  escaped: string,
): Expression<SqlBool> | undefined {
  const declared = searchColumns(entity)[op].some((f) => f.column === field.column)
  if (!declared) return undefined
  const col = sql.ref(`${alias}.${field.column}`)
  if (op === 'startsWith') {
    // The plain ILIKE (PostgreSQL) cannot use a b-tree for a prefix with letters; this range can.
    return kind === 'postgres' ? sql<SqlBool>`lower(${col}) like lower(${escaped}) || '%'` : undefined
  }
  if (kind === 'postgres') {
    return trigramReady ? keyContains(alias, field, text) : undefined
  }
  if (charCount(text) < 3) return undefined
  const fts = sql.table(ftsTable(entity))
  // A column filter and one quoted phrase: the text is matched as a string, never as FTS syntax.
  const query: RawBuilder<unknown> = sql.val(`{${field.column}} : "${text.replace(/"/g, '""')}"`)
  return sql<SqlBool>`${sql.ref(`${alias}.rowid`)} in (select rowid from ${fts} where ${fts} match ${query})`
}
