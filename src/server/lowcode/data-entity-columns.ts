import type { Db } from '../db/dialect.js'
import type { Services } from '../engine/services.js'
import type { RequestContext } from '../platform/request-context.js'
import { invalid } from '../platform/errors.js'
import { newId } from '../platform/ids.js'
import type { Wire } from '../engine/record-codec.js'
import { entityOfTable, tenantTables, type TenantTable } from './tenant-tables.js'
import { columnFromTable, type DataEntityColumn } from './gen-data-types.js'
import { bool, elements, int, optionalText, text } from './lowcode-values.js'

export const DATA_ENTITY = 'genDataEntity'
export const DATA_ENTITY_DETAIL = 'genDataEntityDetail'

/** The tenant table a data entity may use, or the 400 that says it may not. */
export async function allowedTable(services: Services, ctx: RequestContext, db: Db, tableName: unknown): Promise<TenantTable> {
  const name = text(tableName)
  const tables = await tenantTables(db, services.registry, services.databases.schemaOf(ctx.tenantId))
  const table = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name) ? tables.get(name) : undefined
  if (!table) throw invalid(`数据表【${name.slice(0, 64)}】不存在或不允许使用`, 'tableName')
  return table
}

/**
 * Validates the columns of a data entity against its table (each column exists, is not a secret,
 * appears once) and the enumerations; every failure names the column's position.
 */
export function checkColumns(services: Services, table: TenantTable, raw: unknown): DataEntityColumn[] {
  const enums = services.registry.enums
  const list = elements(raw, '字段')
  if (!list.length) throw invalid('请添加字段', 'columns')
  const seen = new Set<string>()
  const known = new Map(table.columns.map((c) => [c.columnName, c]))
  return list.map((e, i) => {
    const where = `第${i + 1}个字段`
    const columnName = text(e.columnName)
    const dbColumn = known.get(columnName)
    if (!dbColumn) throw invalid(`${where}：数据表中不存在字段【${columnName.slice(0, 64)}】`, 'columns')
    if (seen.has(columnName)) throw invalid(`${where}：字段【${columnName}】重复`, 'columns')
    seen.add(columnName)
    const name = optionalText(e.name, 64, `${where}：显示名称`)
    if (!name) throw invalid(`${where}：请输入显示名称`, 'columns')
    const dataType = enums.parse('GEN_DATA_TYPE', e.dataType)
    if (typeof dataType !== 'number') throw invalid(`${where}：数据类型不正确`, 'columns')
    const viewType = enums.parse('GEN_VIEW_TYPE', e.viewType ?? 0)
    if (typeof viewType !== 'number') throw invalid(`${where}：显示类型不正确`, 'columns')
    const fixEnum = bool(e.fixEnum, false)
    const enumFront = optionalText(e.enumFront, 200, `${where}：前端枚举名`)
    if (fixEnum && (!enumFront || !enums.has(enumFront))) throw invalid(`${where}：枚举【${enumFront ?? ''}】不存在`, 'columns')
    return {
      id: typeof e.id === 'string' && /^[A-Za-z0-9]{1,64}$/.test(e.id) ? e.id : undefined,
      name,
      columnName,
      isKey: bool(e.isKey, dbColumn.isKey),
      dataType,
      viewType,
      fixEnum,
      enumFront: fixEnum ? enumFront : null,
      dataDicId: optionalText(e.dataDicId, 64, `${where}：数据字典`),
      customSelectorId: optionalText(e.customSelectorId, 64, `${where}：自定义选择器`),
      columnOrder: int(e.columnOrder, i + 1, `${where}：排序编号`),
      dbDataType: dbColumn.dbDataType.slice(0, 64),
      description: optionalText(e.description, 200, `${where}：备注`),
    }
  })
}

/** Columns of data entities by entity id, in column order. */
export async function loadColumns(services: Services, db: Db, entityIds: string[]): Promise<Map<string, (DataEntityColumn & { id: string })[]>> {
  const detail = services.registry.get(DATA_ENTITY_DETAIL)
  const out = new Map<string, (DataEntityColumn & { id: string })[]>()
  if (!entityIds.length) return out
  const rows = await db.selectFrom(detail.table).selectAll().where('entity_id', 'in', entityIds).orderBy('column_order').orderBy('id').execute()
  for (const row of rows) {
    const wire = services.codec.fromRow(detail, row) as unknown as DataEntityColumn & { id: string; entityId: string }
    const list = out.get(wire.entityId) ?? []
    list.push(wire)
    out.set(wire.entityId, list)
  }
  return out
}

/**
 * Keeps the detail rows equal to the validated columns: a column sent with its id keeps it (data
 * objects and lists refer to columns by id), new ones get one, missing ones are removed.
 */
async function storeColumns(services: Services, trx: Db, entityId: string, columns: DataEntityColumn[]) {
  const detail = services.registry.get(DATA_ENTITY_DETAIL)
  const existing = (await loadColumns(services, trx, [entityId])).get(entityId) ?? []
  const byName = new Map(existing.map((c) => [c.columnName, c.id]))
  const ids = new Set(existing.map((c) => c.id))
  await trx.deleteFrom(detail.table).where('entity_id', '=', entityId).execute()
  for (const c of columns) {
    const id = c.id && ids.has(c.id) ? c.id : byName.get(c.columnName) ?? newId()
    const row = services.codec.toRow({ ...c, entityId } as unknown as Wire, detail.fields)
    await trx.insertInto(detail.table).values({ ...row, id }).execute()
  }
}

/** The data entity's column lines: validated in its write, stored beside it, answered with it. */
export function registerDataEntityHooks(services: Services): void {
  services.hooks.on(DATA_ENTITY, {
    async beforeSave({ trx, ctx, values, existing }) {
      const tableName = values.tableName ?? existing?.tableName
      const table = await allowedTable(services, ctx, trx, tableName)
      if ('columns' in values || !existing) values.columns = checkColumns(services, table, values.columns)
      else if (values.tableName !== undefined && values.tableName !== existing.tableName)
        values.columns = checkColumns(services, table, existing.columns)
    },
    async afterSave({ trx, values, id }) {
      if (Array.isArray(values.columns)) await storeColumns(services, trx, id, values.columns as DataEntityColumn[])
    },
    async beforeDelete({ trx, ids }) {
      const objs = await trx.selectFrom('gen_data_obj').select(['joins']).execute()
      for (const o of objs) {
        const joins = typeof o.joins === 'string' ? o.joins : ''
        if (ids.some((id) => joins.includes(`"${id}"`))) throw invalid('数据实体已被数据对象使用，不允许删除！')
      }
      await trx.deleteFrom(services.registry.get(DATA_ENTITY_DETAIL).table).where('entity_id', 'in', ids).execute()
    },
    async decorate(rows, { db }) {
      const columns = await loadColumns(services, db, rows.map((r) => String(r.id)))
      for (const row of rows) row.columns = columns.get(String(row.id)) ?? []
    },
  })
}

/**
 * Columns for a data entity from its table: existing settings are kept for columns still there
 * (matched by column name, ids included), new columns get the entity file's labels and types.
 */
export function columnsFromTable(services: Services, table: TenantTable, existing: DataEntityColumn[] = []): DataEntityColumn[] {
  const entity = entityOfTable(services.registry, table.tableName)
  const kept = new Map(existing.map((c) => [c.columnName, c]))
  return table.columns.map((c) => {
    const old = kept.get(c.columnName)
    return old ? { ...old, dbDataType: c.dbDataType } : columnFromTable(entity, services.registry.enums, c)
  })
}
