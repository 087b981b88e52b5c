import { sql, type ColumnDataType } from 'kysely'
import type { Db, DbKind } from '../db/dialect.js'
import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import { syncSearchIndexes } from '../db/search-index.js'

/** SQL type of a field; money and quantities are NUMERIC in PostgreSQL and exact text in SQLite. */
export function columnType(field: FieldModel, kind: DbKind, enums: EnumCatalog): ColumnDataType {
  const pg = kind === 'postgres'
  switch (field.type) {
    case 'integer':
      return 'bigint'
    case 'decimal':
      return pg ? `numeric(${field.precision ?? 24}, ${field.scale ?? 2})` : 'text'
    case 'boolean':
      return pg ? 'boolean' : 'integer'
    case 'enum': {
      const k = enums.codeKind(field.enum ?? '')
      return k === 'integer' ? 'integer' : k === 'boolean' ? (pg ? 'boolean' : 'integer') : 'varchar(64)'
    }
    case 'date':
      return pg ? 'date' : 'text'
    case 'datetime':
      return pg ? 'timestamp(0)' : 'text'
    case 'ref':
      return 'varchar(64)'
    case 'string':
      return pg ? `varchar(${Math.max(field.maxLength ?? 255, 1)})` : 'text'
    default:
      return 'text'
  }
}

export function linkTable(entity: EntityModel, field: FieldModel): string {
  return `${entity.table}_${field.column}`
}

/** Multiple refs kept in the engine's link tables; a virtual one (a user's roles) is stored by its hooks. */
export function linkedRefs(entity: EntityModel): FieldModel[] {
  return entity.fields.filter((f) => f.type === 'ref' && f.multiple && !f.virtual)
}

/**
 * What a database holds before a sync: its tables with their columns and its index names, read once per
 * database (PostgreSQL: within one schema). An index already there is not asked for again: a start on an
 * up-to-date database sent ~700 `create index if not exists` one by one (PostgreSQL: ~2 s of a restart).
 */
export interface ExistingSchema {
  tables: Map<string, Set<string>>
  indexes: ReadonlySet<string>
}

export async function existingSchema(db: Db, kind: DbKind, schema?: string): Promise<ExistingSchema> {
  const tables = await db.introspection.getTables()
  const indexes =
    kind === 'postgres'
      ? await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = ${schema ?? 'public'}`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(db)
  return {
    tables: new Map(tables.filter((t) => !schema || t.schema === schema).map((t) => [t.name, new Set(t.columns.map((c) => c.name))])),
    indexes: new Set(indexes.rows.map((r) => r.name)),
  }
}

/**
 * Brings an entity's table up to its file: creates it, or adds the columns the file has gained.
 * Columns are never dropped or retyped automatically (data first); such changes need a migration.
 */
export async function syncEntityTable(
  db: Db,
  kind: DbKind,
  entity: EntityModel,
  enums: EnumCatalog,
  before: ExistingSchema,
): Promise<void> {
  const stored = entity.fields.filter((f) => !(f.type === 'ref' && f.multiple) && !f.virtual)
  const existing = before.tables.get(entity.table)
  const index = (name: string) => (before.indexes.has(name) ? undefined : db.schema.createIndex(name).ifNotExists())
  if (!existing) {
    let create = db.schema
      .createTable(entity.table)
      .ifNotExists()
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    for (const f of stored) create = create.addColumn(f.column, columnType(f, kind, enums))
    create = create
      .addColumn('create_by', 'varchar(64)')
      .addColumn('create_by_id', 'varchar(64)')
      .addColumn('create_time', kind === 'postgres' ? 'timestamp(0)' : 'text')
      .addColumn('update_by', 'varchar(64)')
      .addColumn('update_by_id', 'varchar(64)')
      .addColumn('update_time', kind === 'postgres' ? 'timestamp(0)' : 'text')
    await create.execute()
  } else {
    for (const f of stored.filter((f) => !existing.has(f.column))) {
      await db.schema.alterTable(entity.table).addColumn(f.column, columnType(f, kind, enums)).execute()
    }
  }
  for (const f of stored) {
    if (f.unique) {
      await index(`ux_${entity.table}_${f.column}`)?.unique().on(entity.table).column(f.column).execute()
    } else if (f.index || f.type === 'ref' || f.name === entity.parentField) {
      await index(`ix_${entity.table}_${f.column}`)?.on(entity.table).column(f.column).execute()
    }
  }
  await index(`ix_${entity.table}_create_time`)?.on(entity.table).column('create_time').execute()
  // uniqueTogether is a database constraint too: the store's check gives the message, the index closes the
  // race between two writers, and ON CONFLICT (the stock ledger's upsert) needs it.
  for (const rule of entity.file.uniqueTogether ?? []) {
    const columns = rule.fields.map((name) => stored.find((f) => f.name === name)?.column ?? name)
    await index(`ux_${entity.table}_${columns.join('_')}`)?.unique().on(entity.table).columns(columns).execute()
  }
  for (const declared of entity.file.indexes ?? []) {
    const columns = declared.fields.map((name) => stored.find((f) => f.name === name)?.column ?? name)
    await index(`ix_${entity.table}_${declared.name}`)?.on(entity.table).columns(columns).execute()
  }
  for (const f of linkedRefs(entity)) {
    const link = linkTable(entity, f)
    await db.schema
      .createTable(link)
      .ifNotExists()
      .addColumn('owner_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('ref_id', 'varchar(64)', (c) => c.notNull())
      .addPrimaryKeyConstraint(`pk_${link}`, ['owner_id', 'ref_id'])
      .execute()
    await index(`ix_${link}_ref`)?.on(link).column('ref_id').execute()
  }
  // Text conditions the list and picker declare searchable get an index fit for their match (db/search-index.ts).
  await syncSearchIndexes(db, kind, entity, existing, before.indexes)
}
