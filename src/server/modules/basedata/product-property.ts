import { isBlank } from '../../../shared/metadata/validate-record.js'
import { auditColumns } from '../../platform/audit-columns.js'
import type { FastifyInstance } from 'fastify'
import type { Db } from '../../db/dialect.js'
import type { Wire } from '../../engine/record-codec.js'
import { dbFor } from '../../engine/master-data-routes.js'
import { treeDescendants } from '../../engine/list-conditions.js'
import { invalid } from '../../platform/errors.js'
import { newId } from '../../platform/ids.js'
import { defineCallRoute, schemaAnswer } from '../../platform/call-routes.js'
import { product as productCalls, type PropertyDef } from '../../../shared/contracts/product.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../../engine/services.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'
import { COLUMN_TYPE, PROPERTY_TYPE } from '../../../shared/generated/enum-codes.js'
import { appliesTo, collapseToSingle, isChoice, propertyChangeError, topMostCategories } from '../../domain/product/property.js'
import { isObject, linesOf, onLine, takeLines, treeChain } from './common.js'

const truthy = (v: unknown) => [true, 'true', 1, '1'].includes(v as never)
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x))

/**
 * Product properties (商品属性): values (`items`) for MULTIPLE / SINGLE, scope COMMON / APPOINT (linked
 * categories, normalised to the top-most ones) / NONE, the v3 change rules, and the relations of
 * products rewritten when the type or the scope changes. `GET …/modelor/category` answers the
 * properties that apply to a category.
 */
export function registerPropertyHooks(app: FastifyInstance, services: Services): void {
  const { hooks, registry, store } = services
  const property = registry.get('productProperty')
  const item = registry.get('productPropertyItem')
  const relation = registry.get('productPropertyRelation')
  const category = registry.get('productCategory')
  const product = registry.get('product')

  async function parentMap(db: Db): Promise<Map<string, string | null>> {
    const parent = category.byName.get(category.parentField ?? 'parentId')!.column
    const rows = await db.selectFrom(category.table).select(['id', `${parent} as parent_id`]).execute()
    return new Map(rows.map((r) => [String(r.id), r.parent_id ? String(r.parent_id) : null]))
  }

  async function itemsOf(db: Db, propertyIds: string[]) {
    if (!propertyIds.length) return []
    return db
      .selectFrom(item.table)
      .select(['id', 'property_id', 'code', 'name', 'order_no', 'description'])
      .where('property_id', 'in', propertyIds)
      .orderBy('order_no')
      .orderBy('code')
      .execute()
  }

  /** Items of the request: modified by id, created without, removed when left out (refused while used). */
  async function syncItems(trx: Db, ctx: RequestContext, propertyId: string, raw: unknown) {
    if (!Array.isArray(raw)) throw invalid('请求参数格式错误', 'items')
    const stored = await itemsOf(trx, [propertyId])
    const keep = new Set(raw.filter(isObject).map((l) => l.id).filter((id): id is string => typeof id === 'string' && !!id))
    const removed = stored.map((s) => String(s.id)).filter((id) => !keep.has(id))
    if (removed.length) await store.remove(trx, ctx, item, removed)
    for (const [i, line] of raw.entries()) {
      const isNew = !(isObject(line) && typeof line.id === 'string' && line.id)
      await onLine(`第${i + 1}行属性值${isNew ? '新增' : '修改'}失败，具体原因：`, 'items', async () => {
        if (!isObject(line)) throw invalid('请求参数格式错误')
        const body: Wire = { propertyId, code: line.code, name: line.name, orderNo: i, description: line.description ?? null }
        if (isNew) await store.create(trx, ctx, item, body)
        else {
          if (!stored.some((s) => s.id === line.id)) throw invalid('属性值不存在！')
          await store.modify(trx, ctx, item, { ...body, id: line.id })
        }
      })
    }
  }

  /** Categories whose products a property applies to: all (COMMON) or the subtrees of its categories (APPOINT). */
  async function scopeCategories(trx: Db, propertyType: number, categoryIds: string[]): Promise<string[] | 'all'> {
    if (propertyType === PROPERTY_TYPE.COMMON) return 'all'
    if (propertyType !== PROPERTY_TYPE.APPOINT) return []
    const covered = new Set<string>()
    for (const c of categoryIds) for (const d of await treeDescendants(trx, category, c)) covered.add(d)
    return [...covered]
  }

  /**
   * Makes the stored values agree with the property after a change: MULTIPLE → SINGLE keeps each product's
   * first value; values of products the property no longer applies to are removed; a required choice
   * property gives the products it newly applies to its first value (as v3 `setAppointToCommon` does).
   */
  async function rewriteRelations(trx: Db, ctx: RequestContext, before: Wire, after: Wire, categoryIds: string[]) {
    const propertyId = String(after.id)
    const columnType = Number(after.columnType)
    if (Number(before.columnType) === COLUMN_TYPE.MULTIPLE && columnType === COLUMN_TYPE.SINGLE) {
      const rows = await trx
        .selectFrom(`${relation.table} as r`)
        .leftJoin(`${item.table} as i`, 'i.id', 'r.property_item_id')
        .select(['r.id', 'r.product_id', 'i.order_no'])
        .where('r.property_id', '=', propertyId)
        .execute()
      const drop = collapseToSingle(rows.map((r) => ({ id: String(r.id), productId: String(r.product_id), itemOrder: Number(r.order_no ?? 0) })))
      for (let i = 0; i < drop.length; i += 500) await trx.deleteFrom(relation.table).where('id', 'in', drop.slice(i, i + 500)).execute()
    }
    const scopeChanged =
      Number(before.propertyType) !== Number(after.propertyType) ||
      !sameSet(((before.categoryIds as string[] | null) ?? []).map(String), categoryIds) ||
      (!truthy(before.isRequired) && truthy(after.isRequired))
    if (!scopeChanged) return
    const scope = await scopeCategories(trx, Number(after.propertyType), categoryIds)
    if (scope !== 'all') {
      let del = trx.deleteFrom(relation.table).where('property_id', '=', propertyId)
      if (scope.length)
        del = del.where('product_id', 'not in', trx.selectFrom(product.table).select('id').where('category_id', 'in', scope))
      await del.execute()
    }
    if (!truthy(after.isRequired) || !isChoice(columnType)) return
    const [first] = await itemsOf(trx, [propertyId])
    if (!first || (scope !== 'all' && !scope.length)) return
    let q = trx
      .selectFrom(`${product.table} as p`)
      .select('p.id')
      .where((eb) => eb.not(eb.exists(eb.selectFrom(`${relation.table} as r`).select('r.id').whereRef('r.product_id', '=', 'p.id').where('r.property_id', '=', propertyId))))
    if (scope !== 'all') q = q.where('p.category_id', 'in', scope)
    for (const p of await q.execute())
      await trx
        .insertInto(relation.table)
        .values({ id: newId(), product_id: String(p.id), property_id: propertyId, property_item_id: String(first.id), property_text: null, ...auditColumns(ctx) })
        .execute()
  }

  hooks.on('productProperty', {
    async beforeSave({ trx, mode, values, existing }) {
      const lines = takeLines(values, ['items'])
      const merged: Wire = { ...existing, ...values }
      const columnType = Number(merged.columnType)
      const propertyType = Number(merged.propertyType)
      if (mode === 'create') {
        if (columnType === COLUMN_TYPE.CUSTOM && isBlank(merged.columnDataType)) throw invalid('数据类型不能为空！', 'columnDataType')
      } else {
        const broken = propertyChangeError(
          { columnType: Number(existing!.columnType), columnDataType: existing!.columnDataType as number | null, propertyType: Number(existing!.propertyType) },
          { columnType, columnDataType: isBlank(merged.columnDataType) ? null : Number(merged.columnDataType), propertyType },
        )
        if (broken) throw invalid(broken, broken.includes('数据类型') ? 'columnDataType' : broken.includes('属性类别') ? 'propertyType' : 'columnType')
      }
      if (columnType !== COLUMN_TYPE.CUSTOM) values.columnDataType = null
      if (propertyType === PROPERTY_TYPE.APPOINT) {
        const selected = ((merged.categoryIds as string[] | null | undefined) ?? []).map(String)
        if (!selected.length) throw invalid('请选择商品类目！', 'categoryIds')
        values.categoryIds = topMostCategories(selected, await parentMap(trx))
      } else {
        values.categoryIds = []
      }
      if (isChoice(columnType)) {
        const given = Object.prototype.hasOwnProperty.call(lines, 'items')
        if (given && lines.items !== null && !Array.isArray(lines.items)) throw invalid('请求参数格式错误', 'items')
        const count = given ? ((lines.items as unknown[] | null) ?? []).length : mode === 'create' ? 0 : (await itemsOf(trx, [String(existing!.id)])).length
        if (!count) throw invalid('请添加属性值！', 'items')
      } else {
        delete lines.items
      }
    },
    async afterSave({ trx, ctx, mode, values, existing, id }) {
      const lines = linesOf(values)
      if (Object.prototype.hasOwnProperty.call(lines, 'items')) await syncItems(trx, ctx, id, lines.items ?? [])
      if (mode === 'modify' && existing) {
        const after: Wire = { ...existing, ...values, id }
        if (Number(after.propertyType) !== PROPERTY_TYPE.NONE)
          await rewriteRelations(trx, ctx, existing, after, ((values.categoryIds as string[] | undefined) ?? []).map(String))
      }
    },
    async beforeDelete({ trx, ids }) {
      const used = await trx.selectFrom(relation.table).select('property_id').where('property_id', 'in', ids).executeTakeFirst()
      if (used) throw invalid('该属性已被商品使用，不允许删除！')
      await trx.deleteFrom(item.table).where('property_id', 'in', ids).execute()
    },
    async decorate(rows, { db }) {
      const items = await itemsOf(db, rows.map((r) => String(r.id)))
      for (const row of rows)
        row.items = items
          .filter((i) => i.property_id === row.id)
          .map((i) => ({ id: i.id, code: i.code, name: i.name, orderNo: Number(i.order_no ?? 0), description: i.description ?? null }))
    },
  })

  hooks.on('productPropertyItem', {
    async beforeSave({ trx, values, existing }) {
      const propertyId = String(values.propertyId ?? existing?.propertyId ?? '')
      const owner = await trx.selectFrom(property.table).select('column_type').where('id', '=', propertyId).executeTakeFirst()
      if (owner && Number(owner.column_type) === COLUMN_TYPE.CUSTOM) throw invalid('手动录入的属性不需要设置属性值！', 'propertyId')
    },
    async beforeDelete({ trx, ids }) {
      const used = await trx
        .selectFrom(`${relation.table} as r`)
        .innerJoin(`${item.table} as i`, 'i.id', 'r.property_item_id')
        .select('i.name')
        .where('r.property_item_id', 'in', ids)
        .executeTakeFirst()
      if (used) throw invalid(`属性值【${used.name}】已被商品使用，不允许删除！`)
    },
  })

  // The properties a product of this category fills in: common ones and those appointed to it or an ancestor.
  defineCallRoute(app, productCalls.categoryProperties, {
    access: [...operationKeys(product, 'create'), ...operationKeys(product, 'modify'), ...operationKeys(property, 'query')],
    handler: async ({ ctx, query }) => {
      const categoryId = typeof query.categoryId === 'string' ? query.categoryId.trim() : ''
      if (!categoryId) throw invalid('请选择商品类目！', 'categoryId')
      const db = dbFor(services, ctx, property)
      const found = await db.selectFrom(category.table).select('id').where('id', '=', categoryId).executeTakeFirst()
      if (!found) throw invalid('商品类目不存在！', 'categoryId')
      const chain = await treeChain(db, category, categoryId)
      const all = await store.list(db, ctx, property, {
        params: [{ field: 'available', op: 'eq' }],
        values: { available: 'true' },
        paged: false,
        sort: { field: 'code' },
      })
      // The values are the property schema's; the names are the contract's.
      return schemaAnswer<PropertyDef[]>(
        all.datas
          .filter((p) => appliesTo({ propertyType: Number(p.propertyType), categoryIds: p.categoryIds as string[] }, chain))
          .map(
            (p) =>
              ({
                id: p.id,
                code: p.code,
                name: p.name,
                isRequired: p.isRequired,
                columnType: p.columnType,
                columnDataType: p.columnDataType,
                propertyType: p.propertyType,
                items: p.items,
              }) satisfies Record<keyof PropertyDef, unknown>,
          ),
      )
    },
  })
}
