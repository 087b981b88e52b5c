import { isBlank } from '../../../shared/metadata/validate-record.js'
import type { FastifyInstance } from 'fastify'
import type { Db } from '../../db/dialect.js'
import type { Wire } from '../../engine/record-codec.js'
import { dbFor } from '../../engine/master-data-routes.js'
import { invalid } from '../../platform/errors.js'
import { defineRoute } from '../../platform/routes.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../../engine/services.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'
import { PRODUCT_TYPE } from '../../../shared/generated/enum-codes.js'
import { comboKey, SALE_PROP_WRONG, salePropGroupsError, skuItems, skuName } from '../../domain/product/poly.js'
import { isObject, linesOf, onLine, takeLines } from './common.js'

/** What a SKU line of the SPU request may set; the rest comes from the SPU. */
const LINE_FIELDS = ['code', 'skuCode', 'externalCode', 'spec', 'unit', 'weight', 'volume', 'purchasePrice', 'salePrice', 'retailPrice'] as const
/** SPU fields every SKU copies. */
const INHERITED = ['shortName', 'categoryId', 'brandId', 'taxRate', 'saleTaxRate'] as const

const TRUE = [true, 'true', 1, '1']

interface Item {
  id: string
  groupId: string
  name: string
  available: boolean
}

/**
 * SPU with its SKUs in one write (v2 `ProductPolyServiceImpl.create`): the generic family stores the SPU
 * row and its sale-property groups; these hooks, in the same transaction, check the groups (at most two,
 * ordered, enabled) and turn the `products` lines into `product` rows with `polyId`, the items of each
 * group and the name `SPU name + item names`. A failing line answers `第N行商品新增失败，具体原因：…`
 * and rolls the whole write back.
 */
export function registerPolyHooks(app: FastifyInstance, services: Services): void {
  const { hooks, registry, store } = services
  const poly = registry.get('productPoly')
  const product = registry.get('product')
  const group = registry.get('salePropGroup')
  const itemEntity = registry.get('salePropItem')
  const availableField = itemEntity.byName.get('available')!

  async function itemsOf(db: Db, groupIds: string[]): Promise<Map<string, Item>> {
    if (!groupIds.length) return new Map()
    const rows = await db.selectFrom(itemEntity.table).select(['id', 'group_id', 'name', 'available']).where('group_id', 'in', groupIds).execute()
    return new Map(
      rows.map((r) => [String(r.id), { id: String(r.id), groupId: String(r.group_id), name: String(r.name), available: services.codec.fromColumn(availableField, r.available) === true }]),
    )
  }

  async function skusOf(db: Db, polyId: string) {
    return db
      .selectFrom(product.table)
      .select(['id', 'sale_prop_item_id1', 'sale_prop_item_id2'])
      .where('poly_id', '=', polyId)
      .orderBy('code')
      .execute()
  }

  /** Creates, modifies and removes the SKUs so that they are exactly the request's lines. */
  async function syncSkus(trx: Db, ctx: RequestContext, spu: Wire, groupIds: string[], rawLines: unknown, properties: unknown) {
    if (!Array.isArray(rawLines) || !rawLines.length) throw invalid('商品不能为空！', 'products')
    if (!groupIds.length && rawLines.length > 1) throw invalid('未启用多销售属性的商品SPU只能包含一个商品！', 'products')
    const items = await itemsOf(trx, groupIds)
    const existing = await skusOf(trx, String(spu.id))
    const existingById = new Map(existing.map((s) => [String(s.id), s]))
    const keptIds = new Set(rawLines.filter(isObject).map((l) => l.id).filter((id): id is string => typeof id === 'string' && existingById.has(id)))
    const removed = existing.map((s) => String(s.id)).filter((id) => !keptIds.has(id))
    if (removed.length) await store.remove(trx, ctx, product, removed)

    const combos = new Set<string>()
    for (const [i, raw] of rawLines.entries()) {
      const isNew = !(isObject(raw) && typeof raw.id === 'string' && raw.id)
      await onLine(`第${i + 1}行商品${isNew ? '新增' : '修改'}失败，具体原因：`, 'products', async () => {
        if (!isObject(raw)) throw invalid('请求参数格式错误')
        const before = isNew ? undefined : existingById.get(String(raw.id))
        if (!isNew && !before) throw invalid('商品不存在！')
        const chosen = {
          salePropItem1Id: raw.salePropItem1Id !== undefined ? raw.salePropItem1Id : (before?.sale_prop_item_id1 ?? null),
          salePropItem2Id: raw.salePropItem2Id !== undefined ? raw.salePropItem2Id : (before?.sale_prop_item_id2 ?? null),
        }
        const groupOf = new Map([...items.values()].map((it) => [it.id, it.groupId]))
        const picked = skuItems(chosen, groupIds, groupOf)
        if ('error' in picked) throw invalid(picked.error, 'salePropItem1Id')
        const unchanged = before && picked.items.every((id, k) => id === [before.sale_prop_item_id1, before.sale_prop_item_id2][k])
        if (!unchanged && picked.items.some((id) => !items.get(id)?.available)) throw invalid(SALE_PROP_WRONG, 'salePropItem1Id')
        const key = comboKey(picked.items)
        if (combos.has(key)) throw invalid('销售属性组合重复！', 'salePropItem1Id')
        combos.add(key)

        const body: Wire = {}
        for (const f of LINE_FIELDS) if (raw[f] !== undefined) body[f] = raw[f]
        for (const f of INHERITED) body[f] = spu[f] ?? null
        body.name = skuName(String(spu.name ?? ''), picked.items.map((id) => items.get(id)!.name))
        if (properties !== undefined) body.properties = properties
        let id: string
        if (before) {
          if (raw.available !== undefined) body.available = raw.available
          id = String(before.id)
          await store.modify(trx, ctx, product, { ...body, id })
        } else {
          id = await store.create(trx, ctx, product, { ...body, productType: PRODUCT_TYPE.NORMAL })
        }
        await trx
          .updateTable(product.table)
          .set({ poly_id: String(spu.id), sale_prop_item_id1: picked.items[0] ?? null, sale_prop_item_id2: picked.items[1] ?? null })
          .where('id', '=', id)
          .execute()
      })
    }
  }

  /** A modify without lines: SKUs follow the SPU's name, category, brand and tax rates. */
  async function propagate(trx: Db, ctx: RequestContext, spu: Wire, before: Wire, properties: unknown) {
    const changed = ['name', ...INHERITED].some((f) => String(before[f] ?? '') !== String(spu[f] ?? ''))
    if (!changed && properties === undefined) return
    const groupIds = [spu.salePropGroup1Id, spu.salePropGroup2Id].filter((g): g is string => typeof g === 'string' && !!g)
    const items = await itemsOf(trx, groupIds)
    for (const sku of await skusOf(trx, String(spu.id))) {
      const names = [sku.sale_prop_item_id1, sku.sale_prop_item_id2].filter(Boolean).map((id) => items.get(String(id))?.name ?? '')
      const body: Wire = { id: String(sku.id), name: skuName(String(spu.name ?? ''), names) }
      for (const f of INHERITED) body[f] = spu[f] ?? null
      if (properties !== undefined) body.properties = properties
      await store.modify(trx, ctx, product, body)
    }
  }

  hooks.on('productPoly', {
    async beforeSave({ trx, mode, values }) {
      const lines = takeLines(values, ['products', 'properties'])
      if (mode !== 'create') {
        if (lines.products !== undefined && (!Array.isArray(lines.products) || !lines.products.length))
          throw invalid('商品不能为空！', 'products')
        return
      }
      const groupIds = (values.salePropGroupIds as unknown[] | null | undefined) ?? []
      const wrong = salePropGroupsError(groupIds)
      if (wrong) throw invalid(wrong, 'salePropGroupIds')
      // The flag says whether the SPU has sale properties; choosing groups implies it.
      if (TRUE.includes(values.multiSaleprop as never) && !groupIds.length) throw invalid('请选择销售属性组！', 'salePropGroupIds')
      values.multiSaleprop = groupIds.length > 0
      if (groupIds.length) {
        const found = await trx.selectFrom(group.table).select(['id', 'available']).where('id', 'in', groupIds as string[]).execute()
        const enabled = found.filter((g) => services.codec.fromColumn(group.byName.get('available')!, g.available) === true)
        if (enabled.length !== groupIds.length) throw invalid(SALE_PROP_WRONG, 'salePropGroupIds')
      }
      if (!Array.isArray(lines.products) || !lines.products.length) throw invalid('商品不能为空！', 'products')
    },
    async afterSave({ trx, ctx, mode, values, existing, id }) {
      const lines = linesOf(values)
      if (mode === 'create') {
        const groupIds = ((values.salePropGroupIds as string[] | null | undefined) ?? []).slice()
        await trx
          .updateTable(poly.table)
          .set({ sale_prop_group_id1: groupIds[0] ?? null, sale_prop_group_id2: groupIds[1] ?? null })
          .where('id', '=', id)
          .execute()
        await syncSkus(trx, ctx, { ...values, id }, groupIds, lines.products, lines.properties)
        return
      }
      const spu: Wire = { ...existing, ...values, id }
      const groupIds = [existing?.salePropGroup1Id, existing?.salePropGroup2Id].filter((g): g is string => typeof g === 'string' && !!g)
      if (lines.products !== undefined) await syncSkus(trx, ctx, spu, groupIds, lines.products, lines.properties)
      else await propagate(trx, ctx, spu, existing ?? {}, lines.properties)
    },
    async decorate(rows, { db, ctx }) {
      if (!rows.length) return
      const ids = rows.map((r) => String(r.id))
      const skus = (
        await store.list(db, ctx, product, {
          params: [{ field: 'polyId', op: 'in' }],
          values: { polyId: ids },
          paged: false,
          sort: { field: 'code' },
        })
      ).datas
      const groupIds = [...new Set(rows.flatMap((r) => [r.salePropGroup1Id, r.salePropGroup2Id]).filter(Boolean).map(String))]
      const groups = groupIds.length ? await db.selectFrom(group.table).select(['id', 'name']).where('id', 'in', groupIds).execute() : []
      for (const row of rows) {
        const ordered = [row.salePropGroup1Id, row.salePropGroup2Id].filter((g) => !isBlank(g)).map(String)
        row.salePropGroupIds = ordered
        row.salePropGroupIdsName = ordered.map((g) => groups.find((x) => x.id === g)?.name ?? '').join('，')
        row.products = skus.filter((s) => s.polyId === row.id)
        row.properties = (row.products as Wire[])[0]?.properties ?? []
      }
    },
  })

  defineRoute(app, {
    method: 'GET',
    url: '/basedata/product/poly/skus',
    access: [...operationKeys(poly, 'get'), ...operationKeys(product, 'query')],
    handler: async ({ ctx, query }) => {
      const polyId = typeof query.polyId === 'string' ? query.polyId.trim() : ''
      if (!polyId) throw invalid('请选择商品SPU', 'polyId')
      const db = dbFor(services, ctx, product)
      if (!(await db.selectFrom(poly.table).select('id').where('id', '=', polyId).executeTakeFirst())) throw invalid('商品SPU不存在！', 'polyId')
      return (
        await store.list(db, ctx, product, {
          params: [{ field: 'polyId', op: 'eq' }],
          values: { polyId },
          paged: false,
          sort: { field: 'code' },
        })
      ).datas
    },
  })
}
