import type { Db } from '../db/dialect.js'
import type { EntityRegistry } from '../engine/entity-registry.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { linkTable, linkedRefs } from '../engine/entity-tables.js'

export interface TableColumn {
  columnName: string
  /** The database's own type name (e.g. `text`, `numeric`, `timestamp`). */
  dbDataType: string
  isNullable: boolean
  isKey: boolean
  ordinalPosition: number
}

export interface TenantTable {
  tableName: string
  tableComment: string
  columns: TableColumn[]
}

/**
 * Tables a low-code data entity may read. Engine bookkeeping, session/verification tables and the
 * low-code configuration itself are never offered; neither are columns that hold secrets. Nor is a
 * table without a row rule: only an entity's table (read with the entity's restriction) or the link
 * table of an entity's multiple ref (read with its owner's) is offered, so search indexes (which copy
 * the searched text of every row), counters, role and menu grants and favourites are not.
 */
const DENIED_TABLES = new Set(['sys_session', 'sys_api_token', 'sys_captcha', 'sys_verify_code', 'sys_login_failure', 'sys_module_tenant'])
const DENIED_PREFIXES = ['sqlite_', 'kysely_', 'gen_', 'pg_']
const SECRET_COLUMN = /(password|passwd|secret|salt|token|captcha)/i

export const isDeniedTable = (name: string) => DENIED_TABLES.has(name) || DENIED_PREFIXES.some((p) => name.startsWith(p))

/** An entity's password and hidden fields, or a name that says secret: never readable through low-code. */
export function isSecretColumn(entity: EntityModel | undefined, column: string): boolean {
  if (SECRET_COLUMN.test(column)) return true
  const field = entity?.fields.find((f) => f.column === column)
  return Boolean(field && (field.type === 'password' || field.hidden))
}

const cache = new WeakMap<Db, { at: number; tables: Map<string, TenantTable> }>()
const TTL_MS = 5000

/**
 * The tables of the caller's own tenant database: SQLite's tenant file (no other tenant or the
 * platform lives there), or the tenant's PostgreSQL schema only (`schema` filters the catalogue).
 * Cached for a few seconds per handle, so a list query does not read the catalogue every time.
 */
export async function tenantTables(db: Db, registry: EntityRegistry, schema: string | undefined): Promise<Map<string, TenantTable>> {
  const hit = cache.get(db)
  if (hit && Date.now() - hit.at < TTL_MS) return hit.tables
  const byTable = new Map<string, EntityModel>()
  const links = new Set<string>()
  for (const e of registry.all()) {
    if (e.scope !== 'tenant') continue
    byTable.set(e.table, e)
    for (const f of linkedRefs(e)) links.add(linkTable(e, f))
  }
  const found = await db.introspection.getTables({ withInternalKyselyTables: false })
  const tables = new Map<string, TenantTable>()
  for (const t of found) {
    if (t.isView || isDeniedTable(t.name)) continue
    if (schema ? t.schema !== schema : t.schema && t.schema !== 'main') continue
    const entity = byTable.get(t.name)
    if (!entity && !links.has(t.name)) continue
    tables.set(t.name, {
      tableName: t.name,
      tableComment: entity?.label ?? '',
      columns: t.columns
        .filter((c) => !isSecretColumn(entity, c.name))
        .map((c, i) => ({
          columnName: c.name,
          dbDataType: c.dataType,
          isNullable: c.isNullable,
          isKey: c.name === 'id',
          ordinalPosition: i + 1,
        })),
    })
  }
  cache.set(db, { at: Date.now(), tables })
  return tables
}

/** The registry entity stored in a table, if any (labels, enums and types for its columns). */
export function entityOfTable(registry: EntityRegistry, table: string): EntityModel | undefined {
  return registry.all().find((e) => e.scope === 'tenant' && e.table === table)
}
