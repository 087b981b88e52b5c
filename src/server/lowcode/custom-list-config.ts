import type { Db } from '../db/dialect.js'
import type { Services } from '../engine/services.js'
import type { RequestContext } from '../platform/request-context.js'
import { invalid } from '../platform/errors.js'
import { checkScript, scriptText } from './script-check.js'
import { newId } from '../platform/ids.js'
import type { Wire } from '../engine/record-codec.js'
import { isNumberType } from './gen-data-types.js'
import { resolveDataObj, type ObjColumn, type ResolvedDataObj } from './data-object.js'
import { bool, elements, int, optionalText, text } from './lowcode-values.js'
import { savedConfigCache } from './saved-config-cache.js'
import { tenantTables } from './tenant-tables.js'

export const CUSTOM_LIST = 'genCustomList'
export const CUSTOM_FORM = 'genCustomForm'

/** A list column as stored in `fields` (relaId = a data-object column key, see data-object.ts). */
export interface ListField {
  id: string
  relaId: string
  name: string | null
  widthType: number
  width: number
  sortable: boolean
  isNumberType: boolean
  hasAvailableTag: boolean
  fixEnum: boolean
  frontType: string | null
  formatter: string | null
}

export interface ListQueryParam {
  id: string
  relaId: string
  name: string | null
  viewType: number
  dataType: number
  queryType: number
  defaultValue: string | null
  fixEnum: boolean
  frontType: string | null
  hasAvailableTag: boolean
  dataDicCode: string | null
  customSelectorId: string | null
  formWidth: number
  frontShow: boolean
}

export interface ListButton {
  id: string
  name: string
  viewType: string
  btnType: number
  btnConfig: string | null
  requestParam: string | null
  icon: string | null
  width?: number
}

const SCRIPT_MAX = 20000
const elementId = (v: unknown) => (typeof v === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(v) ? v : newId())

function column(obj: ResolvedDataObj, relaId: unknown, where: string): ObjColumn {
  const c = obj.byKey.get(text(relaId))
  if (!c) throw invalid(`${where}：关联字段不存在`)
  return c
}

async function checkButtons(services: Services, trx: Db, raw: unknown, what: string, withWidth: boolean): Promise<ListButton[]> {
  const enums = services.registry.enums
  const out: ListButton[] = []
  for (const [i, b] of elements(raw, what).entries()) {
    const where = `第${i + 1}个${what}`
    const name = optionalText(b.name, 32, `${where}：显示名称`)
    if (!name) throw invalid(`${where}：请输入显示名称`)
    const viewType = enums.parse('GEN_CUSTOM_LIST_BTN_VIEW_TYPE', b.viewType ?? 'default')
    if (typeof viewType !== 'string') throw invalid(`${where}：按钮样式不正确`)
    const btnType = enums.parse('GEN_CUSTOM_LIST_BTN_TYPE', b.btnType)
    if (typeof btnType !== 'number') throw invalid(`${where}：按钮类型不正确`)
    const btnConfig = optionalText(b.btnConfig, SCRIPT_MAX, `${where}：按钮配置`)
    if (!btnConfig) throw invalid(`${where}：请输入按钮配置`)
    if (btnType === 2) {
      const form = await trx.selectFrom(services.registry.get(CUSTOM_FORM).table).select('id').where('id', '=', btnConfig).executeTakeFirst()
      if (!form) throw invalid(`${where}：自定义表单不存在`)
    }
    if (btnType === 3) await checkScript(scriptText(b.btnConfig), 'toolbar', `${where}：按钮配置脚本`)
    const requestParam = optionalText(b.requestParam, SCRIPT_MAX, `${where}：请求参数`)
    await checkScript(requestParam && scriptText(b.requestParam), withWidth ? 'row' : 'toolbar', `${where}：请求参数脚本`)
    const button: ListButton = {
      id: elementId(b.id),
      name,
      viewType,
      btnType,
      btnConfig,
      requestParam,
      icon: optionalText(b.icon, 100, `${where}：图标`),
    }
    if (withWidth) button.width = int(b.width, 120, `${where}：宽度`, 1, 2000)
    out.push(button)
  }
  return out
}

/**
 * Validates a custom list against its data object: every field and query param names a column of
 * it, enumerations exist, tree settings name columns, buttons are well-formed. Messages name the
 * element's position. Answers the normalised child collections (stored as JSON on the row).
 */
async function checkCustomList(services: Services, ctx: RequestContext, trx: Db, values: Wire) {
  const enums = services.registry.enums
  const obj = await resolveDataObj(services, ctx, trx, String(values.dataObjId ?? ''))
  const rawFields = elements(values.fields, '列表字段')
  const fields: ListField[] = rawFields.map((f, i) => {
    const where = `第${i + 1}个列表字段`
    const c = column(obj, f.relaId, where)
    const fixEnum = bool(f.fixEnum, c.fixEnum)
    const frontType = optionalText(f.frontType, 200, `${where}：前端枚举名`) ?? (fixEnum ? c.enumFront : null)
    if (fixEnum && (!frontType || !enums.has(frontType))) throw invalid(`${where}：枚举【${frontType ?? ''}】不存在`)
    const widthType = enums.parse('GEN_QUERY_WIDTH_TYPE', f.widthType ?? 0)
    if (typeof widthType !== 'number') throw invalid(`${where}：宽度类型不正确`)
    return {
      id: elementId(f.id),
      relaId: c.key,
      name: optionalText(f.name, 64, `${where}：显示名称`),
      widthType,
      width: int(f.width, 160, `${where}：宽度`, 1, 2000),
      sortable: bool(f.sortable, false),
      isNumberType: bool(f.isNumberType, isNumberType(c.dataType)),
      hasAvailableTag: bool(f.hasAvailableTag, false),
      fixEnum,
      frontType: fixEnum ? frontType : null,
      formatter: optionalText(f.formatter, SCRIPT_MAX, `${where}：格式化脚本`),
    }
  })
  if (!fields.length) throw invalid('请添加列表字段', 'fields')
  for (const [i, f] of fields.entries()) await checkScript(f.formatter && scriptText(rawFields[i]?.formatter), 'formatter', `第${i + 1}个列表字段：格式化脚本`, 'fields')
  const queryParams: ListQueryParam[] = elements(values.queryParams, '查询条件').map((q, i) => {
    const where = `第${i + 1}个查询条件`
    const c = column(obj, q.relaId, where)
    const viewType = enums.parse('GEN_VIEW_TYPE', q.viewType ?? c.viewType)
    if (typeof viewType !== 'number') throw invalid(`${where}：显示类型不正确`)
    const queryType = enums.parse('QUERY_TYPE', q.queryType ?? 0)
    if (typeof queryType !== 'number') throw invalid(`${where}：查询类型不正确`)
    const fixEnum = bool(q.fixEnum, c.fixEnum)
    const frontType = optionalText(q.frontType, 200, `${where}：前端枚举名`) ?? (fixEnum ? c.enumFront : null)
    if (fixEnum && (!frontType || !enums.has(frontType))) throw invalid(`${where}：枚举【${frontType ?? ''}】不存在`)
    return {
      id: elementId(q.id),
      relaId: c.key,
      name: optionalText(q.name, 64, `${where}：显示名称`),
      viewType,
      dataType: c.dataType,
      queryType,
      defaultValue: optionalText(q.defaultValue, 1000, `${where}：默认值`),
      fixEnum,
      frontType: fixEnum ? frontType : null,
      hasAvailableTag: bool(q.hasAvailableTag, false),
      dataDicCode: optionalText(q.dataDicCode, 64, `${where}：数据字典`),
      customSelectorId: optionalText(q.customSelectorId, 64, `${where}：自定义选择器`),
      formWidth: int(q.formWidth, 6, `${where}：表单宽度`, 1, 24),
      frontShow: bool(q.frontShow, true),
    }
  })
  const treeData = bool(values.treeData, false)
  for (const [name, label] of [['idColumn', 'ID字段'], ['treePidColumn', '父级ID字段'], ['treeNodeColumn', '树形节点字段']] as const) {
    const v = text(values[name])
    if (v && !obj.byKey.has(v)) throw invalid(`${label}不存在`, name)
    if (!v && (treeData || name === 'idColumn' && values.listType !== undefined && Number(values.listType) !== 0)) throw invalid(`请选择${label}`, name)
  }
  return {
    fields,
    queryParams,
    toolbars: await checkButtons(services, trx, values.toolbars, '工具栏按钮', false),
    handleColumns: await checkButtons(services, trx, values.handleColumns, '操作列按钮', true),
  }
}

/** Custom lists: fields, query params, toolbars and row buttons are JSON on the row, validated here. */
export function registerCustomListHooks(services: Services): void {
  services.hooks.on(CUSTOM_LIST, {
    async beforeSave({ trx, ctx, values, existing }) {
      Object.assign(values, await checkCustomList(services, ctx, trx, { ...existing, ...values }))
    },
  })
}

export interface LoadedList {
  list: Wire
  obj: ResolvedDataObj
  fields: (ListField & { column: ObjColumn })[]
  queryParams: (ListQueryParam & { column: ObjColumn })[]
}

/** An enabled custom list with its data object resolved (columns that vanished are skipped). */
async function readList(services: Services, ctx: RequestContext, db: Db, id: string): Promise<LoadedList> {
  const entity = services.registry.get(CUSTOM_LIST)
  const row = await db.selectFrom(entity.table).selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw invalid('自定义列表不存在')
  const list = services.codec.fromRow(entity, row)
  if (list.available === false) throw invalid('自定义列表已停用')
  const obj = await resolveDataObj(services, ctx, db, String(list.dataObjId))
  const withColumn = <T extends { relaId: string }>(items: unknown) =>
    ((Array.isArray(items) ? items : []) as T[]).flatMap((x) => {
      const c = obj.byKey.get(x.relaId)
      return c ? [{ ...x, column: c }] : []
    })
  return { list, obj, fields: withColumn<ListField>(list.fields), queryParams: withColumn<ListQueryParam>(list.queryParams) }
}

/**
 * The list as last saved: kept per saved version of the low-code configuration (saved-config-cache.ts)
 * while the live columns of its tables stay as they were resolved (a column dropped since is skipped).
 */
export async function loadList(services: Services, ctx: RequestContext, db: Db, id: unknown): Promise<LoadedList> {
  if (typeof id !== 'string' || !id) throw invalid('自定义列表不存在')
  const shape = async (loaded: LoadedList) => {
    const live = await tenantTables(db, services.registry, services.databases.schemaOf(ctx.tenantId))
    return [loaded.obj.main.table, ...loaded.obj.joins.map((j) => j.table)].map((t) => `${t}:${live.get(t)?.columns.map((c) => c.columnName).join(',') ?? ''}`).join(';')
  }
  const kept = await savedConfigCache(services).value(
    ctx,
    db,
    `list:${id}`,
    async () => {
      const loaded = await readList(services, ctx, db, id)
      return { loaded, shape: await shape(loaded) }
    },
    async (k) => (await shape(k.loaded)) === k.shape,
  )
  return kept.loaded
}

/** `GET /gen/api/custom/list/config?id`: what the browser's custom list renders from. */
export function listConfigWire(loaded: LoadedList) {
  const { list } = loaded
  return {
    listConfig: {
      id: list.id,
      name: list.name,
      listType: list.listType,
      labelWidth: list.labelWidth,
      hasPage: list.hasPage,
      treeData: list.treeData,
      idColumn: list.idColumn ?? null,
      treePidColumn: list.treePidColumn ?? null,
      treeNodeColumn: list.treeNodeColumn ?? null,
      treeChildrenKey: list.treeChildrenKey || 'children',
      allowExport: list.allowExport,
      fields: loaded.fields.map((f) => ({
        id: f.id,
        columnName: f.column.key,
        name: f.name || f.column.name,
        dataType: f.column.dataType,
        widthType: f.widthType,
        width: f.width,
        sortable: f.sortable,
        isNumberType: f.isNumberType,
        hasAvailableTag: f.hasAvailableTag,
        fixEnum: f.fixEnum,
        frontType: f.frontType,
        formatter: f.formatter,
      })),
    },
    queryParams: loaded.queryParams.map((q) => ({
      id: q.id,
      tableAlias: q.column.tableAlias,
      columnName: q.column.columnName,
      name: q.name || q.column.name,
      viewType: q.viewType,
      dataType: q.column.dataType,
      queryType: q.queryType,
      defaultValue: q.defaultValue,
      fixEnum: q.fixEnum,
      frontType: q.frontType,
      hasAvailableTag: q.hasAvailableTag,
      dataDicCode: q.dataDicCode,
      customSelectorId: q.customSelectorId,
      formWidth: q.formWidth,
      frontShow: q.frontShow,
    })),
    toolbars: (Array.isArray(list.toolbars) ? list.toolbars : []) as ListButton[],
    handleColumns: (Array.isArray(list.handleColumns) ? list.handleColumns : []) as ListButton[],
  }
}
