import { auditColumns } from '../../platform/audit-columns.js'
import type { Db } from '../../db/dialect.js'
import { shapedStatement, where } from '../../db/shaped-statements.js'
import type { Wire } from '../../engine/record-codec.js'
import { invalid } from '../../platform/errors.js'
import { newId } from '../../platform/ids.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../../engine/services.js'
import { checkField, isBlank } from '../../../shared/metadata/validate-record.js'
import { COLUMN_DATA_TYPE, COLUMN_TYPE, PRODUCT_TYPE } from '../../../shared/generated/enum-codes.js'
import { bundlePriceError, type BundleLine } from '../../domain/product/bundle-price.js'
import { appliesTo, customValueError, isChoice } from '../../domain/product/property.js'
import { isObject, linesOf, takeLines, treeChain } from './common.js'

const BUNDLE_FIELDS = ['productId', 'bundleNum', 'salePrice', 'retailPrice'] as const

interface PropertyValue {
  propertyId: string
  itemIds: string[]
  text: string | null
}

/**
 * Rules of `product` rows beyond the entity file:
 * - a BUNDLE carries its components (`productBundles`), whose line prices must add up to the bundle's
 *   prices; components must be NORMAL products;
 * - property values (`properties`, v3 shape `[{id: propertyId, text}]`) are checked against the
 *   property (its items, its data type, whether it applies to the product's category, required);
 * - a SKU of a SPU takes category and brand from the SPU.
 */
export function registerProductHooks(services: Services): void {
  const { hooks, registry, codec, store } = services
  const product = registry.get('product')
  const bundle = registry.get('productBundle')
  const property = registry.get('productProperty')
  const category = registry.get('productCategory')
  const poly = registry.get('productPoly')
  const bundleField = (name: string) => bundle.byName.get(name)!

  /** Validated component lines; every message names the line. */
  async function readBundleLines(trx: Db, ctx: RequestContext, raw: unknown, selfId?: string): Promise<BundleLine[]> {
    if (raw === null || raw === undefined) return []
    if (!Array.isArray(raw)) throw invalid('请求参数格式错误', 'productBundles')
    const lines: BundleLine[] = []
    for (const [i, line] of raw.entries()) {
      const at = `第${i + 1}行单品：`
      if (!isObject(line)) throw invalid(`${at}请求参数格式错误`, 'productBundles')
      for (const name of BUNDLE_FIELDS) {
        const message = checkField(bundleField(name), line[name], registry.enums, 'create')
        if (message) throw invalid(`${at}${message}`, 'productBundles')
      }
      const productId = String(line.productId)
      if (lines.some((l) => l.productId === productId)) throw invalid(`${at}单品不能重复！`, 'productBundles')
      lines.push({
        productId,
        bundleNum: Number(line.bundleNum),
        salePrice: String(line.salePrice).trim(),
        retailPrice: String(line.retailPrice).trim(),
      })
    }
    const ids = lines.map((l) => l.productId)
    // Among the caller's products only: a component outside their data permission is as missing as an unknown one.
    const found = ids.length
      ? await (await store.rows(trx, ctx, product)).select(['t.id', 't.product_type']).where('t.id', 'in', ids).execute()
      : []
    for (const [i, line] of lines.entries()) {
      const row = found.find((r) => r.id === line.productId)
      if (!row) throw invalid(`第${i + 1}行单品：单品不存在！`, 'productBundles')
      if (Number(row.product_type) !== PRODUCT_TYPE.NORMAL || line.productId === selfId)
        throw invalid(`第${i + 1}行单品：组合商品的单品只能是普通商品！`, 'productBundles')
    }
    return lines
  }

  async function storedBundleLines(db: Db, mainIds: string[]) {
    if (!mainIds.length) return []
    return db
      .selectFrom(`${bundle.table} as b`)
      .leftJoin(`${product.table} as p`, 'p.id', 'b.product_id')
      .select(['b.main_product_id', 'b.product_id', 'b.bundle_num', 'b.sale_price', 'b.retail_price', 'p.code', 'p.name', 'p.sku_code'])
      .where('b.main_product_id', 'in', mainIds)
      .orderBy('b.main_product_id')
      .orderBy('b.order_no')
      .execute()
  }

  async function writeBundleLines(trx: Db, ctx: RequestContext, mainId: string, lines: BundleLine[]) {
    await trx.deleteFrom(bundle.table).where('main_product_id', '=', mainId).execute()
    for (const [i, line] of lines.entries()) {
      await trx
        .insertInto(bundle.table)
        .values({
          id: newId(),
          main_product_id: mainId,
          product_id: line.productId,
          bundle_num: Number(line.bundleNum),
          sale_price: codec.toColumn(bundleField('salePrice'), line.salePrice),
          retail_price: codec.toColumn(bundleField('retailPrice'), line.retailPrice),
          order_no: i,
          ...auditColumns(ctx),
        })
        .execute()
    }
  }

  /** Property values of one product, checked against the properties that apply to its category. */
  async function readPropertyValues(trx: Db, ctx: RequestContext, raw: unknown, categoryId: string): Promise<PropertyValue[]> {
    if (raw === null || raw === undefined) raw = []
    if (!Array.isArray(raw)) throw invalid('请求参数格式错误', 'properties')
    const chain = await treeChain(trx, category, categoryId)
    const all = (await store.list(trx, ctx, property, { params: [], values: {}, paged: false })).datas
    const byId = new Map(all.map((p) => [String(p.id), p]))
    const out: PropertyValue[] = []
    for (const entry of raw) {
      if (!isObject(entry)) throw invalid('请求参数格式错误', 'properties')
      const id = String(entry.id ?? entry.propertyId ?? '')
      const p = byId.get(id)
      if (!p) throw invalid('商品属性不存在！', 'properties')
      if (out.some((v) => v.propertyId === id)) throw invalid(`商品属性【${p.name}】重复！`, 'properties')
      if (!appliesTo({ propertyType: Number(p.propertyType), categoryIds: p.categoryIds as string[] }, chain))
        throw invalid(`商品属性【${p.name}】不适用于该商品类目！`, 'properties')
      const columnType = Number(p.columnType)
      const text = entry.text ?? entry.value
      if (isChoice(columnType)) {
        let ids: unknown = text
        if (typeof ids === 'string' && ids.trim().startsWith('[')) {
          try {
            ids = JSON.parse(ids)
          } catch {
            throw invalid('商品属性值不存在！', 'properties')
          }
        }
        const list = (Array.isArray(ids) ? ids : isBlank(ids) ? [] : [ids]).map(String)
        if (columnType === COLUMN_TYPE.SINGLE && list.length > 1) throw invalid(`商品属性【${p.name}】只能选择一个属性值！`, 'properties')
        const items = new Set(((p.items as Wire[] | undefined) ?? []).map((it) => String(it.id)))
        if (list.some((itemId) => !items.has(itemId))) throw invalid('商品属性值不存在！', 'properties')
        if (list.length) out.push({ propertyId: id, itemIds: [...new Set(list)], text: null })
      } else {
        if (isBlank(text)) continue
        if (typeof text !== 'string' && typeof text !== 'number') throw invalid('请求参数格式错误', 'properties')
        // A number is never trimmed (decimal-grammar.ts): blanks around it are refused like any malformed number.
        const numeric = p.columnDataType === COLUMN_DATA_TYPE.INT || p.columnDataType === COLUMN_DATA_TYPE.FLOAT
        const value = numeric ? String(text) : String(text).trim()
        const message = customValueError(String(p.name), p.columnDataType as number | null, value)
        if (message) throw invalid(message, 'properties')
        out.push({ propertyId: id, itemIds: [], text: value })
      }
    }
    for (const p of all) {
      if (!p.isRequired || !p.available) continue
      if (!appliesTo({ propertyType: Number(p.propertyType), categoryIds: p.categoryIds as string[] }, chain)) continue
      if (!out.some((v) => v.propertyId === p.id))
        throw invalid(`${isChoice(Number(p.columnType)) ? '请选择' : '请输入'}${p.name}`, 'properties')
    }
    return out
  }

  async function writePropertyValues(trx: Db, ctx: RequestContext, productId: string, values: PropertyValue[]) {
    const relation = registry.get('productPropertyRelation').table
    await trx.deleteFrom(relation).where('product_id', '=', productId).execute()
    for (const v of values) {
      const rows = v.itemIds.length
        ? v.itemIds.map((itemId) => ({ property_item_id: itemId, property_text: null }))
        : [{ property_item_id: null, property_text: v.text }]
      for (const row of rows)
        await trx
          .insertInto(relation)
          .values({ id: newId(), product_id: productId, property_id: v.propertyId, ...row, ...auditColumns(ctx) })
          .execute()
    }
  }

  hooks.on('product', {
    // A create checks its own bundle lines and writes its own lines and property values only.
    rowLocal: true,
    async beforeSave({ trx, ctx, mode, values, existing }) {
      const lines = takeLines(values, ['productBundles', 'properties'])
      const merged = { ...existing, ...values }
      if (mode === 'modify' && existing?.polyId) {
        const spu = await trx.selectFrom(poly.table).select(['category_id', 'brand_id']).where('id', '=', String(existing.polyId)).executeTakeFirst()
        if (spu && (String(merged.categoryId) !== String(spu.category_id) || String(merged.brandId) !== String(spu.brand_id)))
          throw invalid('该商品属于商品SPU，类目和品牌请在商品SPU中修改！', 'categoryId')
      }
      const type = Number(merged.productType)
      const given = Object.prototype.hasOwnProperty.call(lines, 'productBundles')
      if (type === PRODUCT_TYPE.BUNDLE) {
        const components = given
          ? await readBundleLines(trx, ctx, lines.productBundles, existing?.id as string | undefined)
          : mode === 'modify'
            ? (await storedBundleLines(trx, [String(existing!.id)])).map((r) => ({
                productId: String(r.product_id),
                bundleNum: Number(r.bundle_num),
                salePrice: String(r.sale_price),
                retailPrice: String(r.retail_price),
              }))
            : []
        if (!components.length) throw invalid('单品数据不能为空！', 'productBundles')
        const broken = bundlePriceError(merged, components)
        if (broken) throw invalid(broken.message, broken.field)
        lines.bundleLines = given ? components : undefined
      } else if (given && Array.isArray(lines.productBundles) && lines.productBundles.length) {
        throw invalid('只有组合商品才能设置单品！', 'productBundles')
      }
    },
    async afterSave({ trx, ctx, values, existing, id }) {
      const lines = linesOf(values)
      if (lines.bundleLines) await writeBundleLines(trx, ctx, id, lines.bundleLines as BundleLine[])
      if (Object.prototype.hasOwnProperty.call(lines, 'properties')) {
        const categoryId = String(values.categoryId ?? existing?.categoryId ?? '')
        await writePropertyValues(trx, ctx, id, await readPropertyValues(trx, ctx, lines.properties, categoryId))
      }
    },
    async beforeDelete({ trx, ids }) {
      await trx.deleteFrom(bundle.table).where('main_product_id', 'in', ids).execute()
      await trx.deleteFrom(registry.get('productPropertyRelation').table).where('product_id', 'in', ids).execute()
    },
    async decorate(rows, { db }) {
      if (!rows.length) return
      const bundleIds = rows.filter((r) => Number(r.productType) === PRODUCT_TYPE.BUNDLE).map((r) => String(r.id))
      const components = await storedBundleLines(db, bundleIds)
      const ids = rows.map((r) => String(r.id))
      // Read for every page of products: compiled once per number of rows (db/shaped-statements.ts).
      const read = shapedStatement(db, 'product properties', [where('r.product_id', 'in', ids)], [], ([byProduct]) =>
        db
          .selectFrom(`${registry.get('productPropertyRelation').table} as r`)
          .innerJoin(`${property.table} as p`, 'p.id', 'r.property_id')
          .leftJoin(`${registry.get('productPropertyItem').table} as i`, 'i.id', 'r.property_item_id')
          .select(['r.product_id', 'r.property_id', 'r.property_item_id', 'r.property_text', 'p.name', 'p.code', 'p.column_type', 'p.column_data_type', 'i.name as item_name', 'i.order_no'])
          .where(byProduct)
          .orderBy('p.code')
          .orderBy('i.order_no'),
      )
      const relations = (await db.executeQuery(read)).rows
      for (const row of rows) {
        row.productBundles = components
          .filter((c) => c.main_product_id === row.id)
          .map((c) => ({
            productId: c.product_id,
            productCode: c.code ?? null,
            productName: c.name ?? null,
            skuCode: c.sku_code ?? null,
            bundleNum: Number(c.bundle_num),
            salePrice: codec.fromColumn(bundleField('salePrice'), c.sale_price),
            retailPrice: codec.fromColumn(bundleField('retailPrice'), c.retail_price),
          }))
        const mine = relations.filter((r) => r.product_id === row.id)
        const grouped = new Map<string, Wire>()
        for (const r of mine) {
          const columnType = Number(r.column_type)
          let entry = grouped.get(String(r.property_id))
          if (!entry) {
            entry = { id: r.property_id, name: r.name, code: r.code, columnType, columnDataType: r.column_data_type ?? null, text: columnType === COLUMN_TYPE.MULTIPLE ? [] : null, itemNames: '' }
            grouped.set(String(r.property_id), entry)
          }
          if (columnType === COLUMN_TYPE.CUSTOM) entry.text = r.property_text
          else if (columnType === COLUMN_TYPE.MULTIPLE) (entry.text as string[]).push(String(r.property_item_id))
          else entry.text = r.property_item_id
          if (r.item_name) entry.itemNames = entry.itemNames ? `${entry.itemNames}，${r.item_name}` : r.item_name
        }
        row.properties = [...grouped.values()]
      }
    },
  })
}
