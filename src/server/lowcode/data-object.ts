import type { Db } from '../db/dialect.js'
import type { Services } from '../engine/services.js'
import type { RequestContext } from '../platform/request-context.js'
import { invalid } from '../platform/errors.js'
import { newId } from '../platform/ids.js'
import type { Wire } from '../engine/record-codec.js'
import type { Field } from '../../shared/generated/entity.js'
import { isSecretColumn, entityOfTable, tenantTables } from './tenant-tables.js'
import { DATA_ENTITY, loadColumns } from './data-entity-columns.js'
import { fieldOfColumn, type DataEntityColumn } from './gen-data-types.js'
import { parseCustomSql, type ColumnScope, type SqlToken } from './custom-sql.js'
import { tryCustomColumns, type CheckedColumn, type CheckedJoin } from './custom-sql-check.js'
import { ALIAS, elements, optionalText, text, type Obj } from './lowcode-values.js'

export const DATA_OBJ = 'genDataObj'
/** `tableAlias` of custom SQL columns in list configs and conditions. */
export const CUSTOM_ALIAS = 'custom'
const CUSTOM_COLUMN_ALIAS = /^[a-z][a-z0-9_]{0,39}$/

/** A join of a data object, as stored in its `joins` JSON. */
export interface DataObjJoin {
  id: string
  subTableId: string
  subTableAlias: string
  relaType: number
  relaMode: number
  /** Pairs: main entity column ids and sub entity column ids, compared one to one. */
  mainTableDetailIds: string[]
  subTableDetailIds: string[]
}

export interface DataObjCustomColumn {
  id: string
  customName: string
  customSql: string
  customAlias: string
  dataType: number
}

/** One column a data object offers: `{alias}_{column}` of an entity, or `custom_{alias}`. */
export interface ObjColumn {
  /** Row property and relaId: unique within the data object. */
  key: string
  tableAlias: string
  /** Database column (entity columns) or the custom alias. */
  columnName: string
  name: string
  dataType: number
  viewType: number
  fixEnum: boolean
  enumFront: string | null
  dataDicId: string | null
  customSelectorId: string | null
  /** The entity-file field the column maps to (gen-data-types.ts: one mapping for generator and runtime). */
  field: Field
  dataEntityId?: string
  detailId?: string
  custom?: SqlToken[]
  isKey: boolean
}

export interface ResolvedTable {
  entityId: string
  table: string
  alias: string
}

export interface ResolvedDataObj {
  id: string
  name: string
  main: ResolvedTable
  joins: (ResolvedTable & { relaMode: number; on: [string, string][] })[]
  columns: ObjColumn[]
  byKey: Map<string, ObjColumn>
}

type Entities = Map<string, { tableName: string; columns: (DataEntityColumn & { id: string })[] }>

async function loadEntities(services: Services, db: Db, ids: string[]): Promise<Entities> {
  const entity = services.registry.get(DATA_ENTITY)
  const unique = [...new Set(ids.filter(Boolean))]
  const rows = unique.length ? await db.selectFrom(entity.table).select(['id', 'table_name']).where('id', 'in', unique).execute() : []
  const columns = await loadColumns(services, db, unique)
  return new Map(rows.map((r) => [String(r.id), { tableName: String(r.table_name), columns: columns.get(String(r.id)) ?? [] }]))
}

function ids(v: unknown, where: string): string[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw invalid(`${where}格式不正确`)
  return v as string[]
}

/** Validates main table, joins and custom columns of a data object; answers them normalised. */
async function checkDataObj(services: Services, trx: Db, values: Wire) {
  const mainAlias = text(values.mainTableAlias)
  if (!ALIAS.test(mainAlias) || mainAlias === CUSTOM_ALIAS) throw invalid('主表别名只能由小写字母和数字组成，以字母开头，且不能为custom', 'mainTableAlias')
  const rawJoins = elements(values.joins, '关联表')
  const entities = await loadEntities(services, trx, [String(values.mainTableId ?? ''), ...rawJoins.map((j) => text(j.subTableId))])
  const main = entities.get(String(values.mainTableId ?? ''))
  if (!main) throw invalid('主表不存在', 'mainTableId')
  const aliases = new Set([mainAlias])
  const scope = new Map<string, Set<string>>([[mainAlias, new Set(main.columns.map((c) => c.columnName))]])
  const mainColumnIds = new Set(main.columns.map((c) => c.id))
  const columnName = (e: { columns: { id: string; columnName: string }[] }, id: string) => e.columns.find((c) => c.id === id)!.columnName
  const checkedJoins: CheckedJoin[] = []
  const joins: DataObjJoin[] = rawJoins.map((j: Obj, i) => {
    const where = `第${i + 1}个关联表`
    const sub = entities.get(text(j.subTableId))
    if (!sub) throw invalid(`${where}：数据实体不存在`, 'joins')
    const alias = text(j.subTableAlias)
    if (!ALIAS.test(alias) || alias === CUSTOM_ALIAS) throw invalid(`${where}：别名只能由小写字母和数字组成，以字母开头，且不能为custom`, 'joins')
    if (aliases.has(alias)) throw invalid(`${where}：别名【${alias}】重复`, 'joins')
    aliases.add(alias)
    scope.set(alias, new Set(sub.columns.map((c) => c.columnName)))
    const relaType = services.registry.enums.parse('GEN_RELA_TYPE', j.relaType ?? 0)
    if (typeof relaType !== 'number') throw invalid(`${where}：关联类型不正确`, 'joins')
    const relaMode = services.registry.enums.parse('GEN_RELA_MODE', j.relaMode ?? 0)
    if (typeof relaMode !== 'number') throw invalid(`${where}：关联方式不正确`, 'joins')
    const mainIds = ids(j.mainTableDetailIds, `${where}：主表字段`)
    const subIds = ids(j.subTableDetailIds, `${where}：子表字段`)
    if (!mainIds.length || mainIds.length !== subIds.length || mainIds.length > 10) throw invalid(`${where}：请设置一一对应的关联字段`, 'joins')
    const subColumnIds = new Set(sub.columns.map((c) => c.id))
    if (mainIds.some((id) => !mainColumnIds.has(id))) throw invalid(`${where}：主表字段不存在`, 'joins')
    if (subIds.some((id) => !subColumnIds.has(id))) throw invalid(`${where}：子表字段不存在`, 'joins')
    checkedJoins.push({ table: sub.tableName, alias, on: mainIds.map((id, k) => [columnName(main, id), columnName(sub, subIds[k])]) })
    return { id: typeof j.id === 'string' && j.id ? j.id.slice(0, 64) : newId(), subTableId: text(j.subTableId), subTableAlias: alias, relaType, relaMode, mainTableDetailIds: mainIds, subTableDetailIds: subIds }
  })
  const customAliases = new Set<string>()
  const checkedColumns: CheckedColumn[] = []
  const customColumns: DataObjCustomColumn[] = elements(values.customColumns, '自定义查询字段').map((c, i) => {
    const where = `第${i + 1}个自定义查询字段`
    const customName = optionalText(c.customName, 200, `${where}：显示名称`)
    if (!customName) throw invalid(`${where}：请输入显示名称`, 'customColumns')
    const customAlias = text(c.customAlias)
    if (!CUSTOM_COLUMN_ALIAS.test(customAlias)) throw invalid(`${where}：别名只能由小写字母、数字和下划线组成，以字母开头`, 'customColumns')
    if (customAliases.has(customAlias)) throw invalid(`${where}：别名【${customAlias}】重复`, 'customColumns')
    customAliases.add(customAlias)
    const dataType = services.registry.enums.parse('GEN_DATA_TYPE', c.dataType ?? 0)
    if (typeof dataType !== 'number') throw invalid(`${where}：数据类型不正确`, 'customColumns')
    checkedColumns.push({ where: `${where}【${customName}】`, tokens: parseCustomSql(c.customSql, scope, where) })
    return { id: typeof c.id === 'string' && c.id ? c.id.slice(0, 64) : newId(), customName, customSql: String(c.customSql).trim(), customAlias, dataType }
  })
  // Compiled and run on an empty page: a column the database cannot run is refused now, not when a list runs.
  await tryCustomColumns(services.databases.kind, trx, { table: main.tableName, alias: mainAlias }, checkedJoins, checkedColumns)
  return { joins, customColumns }
}

/** Data objects: joins and custom columns are JSON on the row, validated here in the write. */
export function registerDataObjHooks(services: Services): void {
  services.hooks.on(DATA_OBJ, {
    async beforeSave({ trx, values, existing }) {
      const merged = { ...existing, ...values }
      const { joins, customColumns } = await checkDataObj(services, trx, merged)
      values.joins = joins
      values.customColumns = customColumns
      values.mainTableAlias = text(merged.mainTableAlias)
    },
  })
}

/**
 * A data object ready for a query: every table checked again against the tenant's live tables (it
 * may have been dropped, or be on the deny list since), every column against the live columns and
 * the secret-column rule. Only what this returns ever reaches SQL.
 */
export async function resolveDataObj(services: Services, ctx: RequestContext, db: Db, dataObjId: string): Promise<ResolvedDataObj> {
  const objEntity = services.registry.get(DATA_OBJ)
  const row = await db.selectFrom(objEntity.table).selectAll().where('id', '=', dataObjId).executeTakeFirst()
  if (!row) throw invalid('数据对象不存在')
  const obj = services.codec.fromRow(objEntity, row)
  const joins = (Array.isArray(obj.joins) ? obj.joins : []) as DataObjJoin[]
  const customs = (Array.isArray(obj.customColumns) ? obj.customColumns : []) as DataObjCustomColumn[]
  const entities = await loadEntities(services, db, [String(obj.mainTableId), ...joins.map((j) => j.subTableId)])
  const live = await tenantTables(db, services.registry, services.databases.schemaOf(ctx.tenantId))
  const columns: ObjColumn[] = []
  const scope = new Map<string, Set<string>>()
  const table = (entityId: string, alias: string): ResolvedTable & { byId: Map<string, string> } => {
    const e = entities.get(entityId)
    const t = e && live.get(e.tableName)
    if (!e || !t) throw invalid(`数据对象【${String(obj.name)}】的数据表不存在或不允许使用`)
    const liveColumns = new Set(t.columns.map((c) => c.columnName))
    const registryEntity = entityOfTable(services.registry, t.tableName)
    const byId = new Map<string, string>()
    const mine = new Set<string>()
    for (const c of e.columns) {
      if (!liveColumns.has(c.columnName) || isSecretColumn(registryEntity, c.columnName)) continue
      byId.set(c.id, c.columnName)
      mine.add(c.columnName)
      columns.push({
        key: `${alias}_${c.columnName}`,
        tableAlias: alias,
        columnName: c.columnName,
        name: c.name,
        dataType: c.dataType,
        viewType: c.viewType,
        fixEnum: Boolean(c.fixEnum),
        enumFront: c.enumFront ?? null,
        dataDicId: c.dataDicId ?? null,
        customSelectorId: c.customSelectorId ?? null,
        field: fieldOfColumn(c, services.registry.enums),
        dataEntityId: entityId,
        detailId: c.id,
        isKey: Boolean(c.isKey),
      })
    }
    scope.set(alias, mine)
    return { entityId, table: t.tableName, alias, byId }
  }
  const main = table(String(obj.mainTableId), String(obj.mainTableAlias))
  const resolvedJoins = joins.map((j) => {
    const sub = table(j.subTableId, j.subTableAlias)
    const on = j.mainTableDetailIds.map((id, i): [string, string] => {
      const m = main.byId.get(id)
      const s = sub.byId.get(j.subTableDetailIds[i])
      if (!m || !s) throw invalid(`数据对象【${String(obj.name)}】的关联字段不存在`)
      return [m, s]
    })
    return { entityId: sub.entityId, table: sub.table, alias: sub.alias, relaMode: j.relaMode, on }
  })
  for (const c of customs) {
    const tokens = parseCustomSql(c.customSql, scope as ColumnScope, `自定义查询字段【${c.customName}】`)
    const column: DataEntityColumn = { name: c.customName, columnName: c.customAlias, isKey: false, dataType: c.dataType, viewType: 0, fixEnum: false, columnOrder: 0 }
    columns.push({
      key: `${CUSTOM_ALIAS}_${c.customAlias}`,
      tableAlias: CUSTOM_ALIAS,
      columnName: c.customAlias,
      name: c.customName,
      dataType: c.dataType,
      viewType: 0,
      fixEnum: false,
      enumFront: null,
      dataDicId: null,
      customSelectorId: null,
      field: fieldOfColumn(column, services.registry.enums),
      custom: tokens,
      isKey: false,
    })
  }
  return {
    id: String(obj.id),
    name: String(obj.name),
    main: { entityId: main.entityId, table: main.table, alias: main.alias },
    joins: resolvedJoins,
    columns,
    byKey: new Map(columns.map((c) => [c.key, c])),
  }
}

/** What `GET /gen/data/obj/columns` answers for one column (no SQL inside). */
export function columnWire(c: ObjColumn) {
  return {
    id: c.key,
    relaId: c.key,
    columnName: c.key,
    tableAlias: c.tableAlias,
    dbColumnName: c.columnName,
    name: c.name,
    dataType: c.dataType,
    viewType: c.viewType,
    fixEnum: c.fixEnum,
    enumFront: c.enumFront,
    dataDicId: c.dataDicId,
    customSelectorId: c.customSelectorId,
    dataEntityId: c.dataEntityId ?? null,
    detailId: c.detailId ?? null,
    isCustom: Boolean(c.custom),
    isKey: c.isKey,
  }
}

