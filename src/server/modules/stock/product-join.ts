import type { Expression, SelectQueryBuilder, SqlBool } from 'kysely'
import type { Db } from '../../db/dialect.js'
import type { QueryParam } from '../../../shared/generated/entity.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import { buildConditions, treeDescendants } from '../../engine/list-conditions.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../../engine/services.js'
import { paramsOf } from '../../engine/list-routes.js'

/**
 * The stock screens list ledger rows (alias `t`) with their product (`p`), category (`c`), brand (`b`) and
 * warehouse (`s`). The generic list filters an entity's own columns only, so these lists are written
 * here; every filter still goes through the engine's `buildConditions` (declared params, whitelisted
 * columns, bound values) and the products' data permission through `store.dataFilter` with the same
 * table placeholders as the product list (product, category, brand).
 */

/** Filters on the product of a row, with the wire names of v3's stock screens. */
export const PRODUCT_FILTERS: readonly QueryParam[] = [
  { field: 'code', op: 'contains', param: 'productCode' },
  { field: 'name', op: 'contains', param: 'productName' },
  { field: 'skuCode', op: 'contains', param: 'skuCode' },
  { field: 'categoryId', op: 'treeContains' },
  { field: 'brandId', op: 'in' },
]

/** The conditions `productJoinedBase` reads: the entity's own params and the product filters. */
export const productJoinedConditions = (services: Services, entity: EntityModel, ownParams: readonly QueryParam[]) => [
  ...paramsOf(services, entity, ownParams),
  ...paramsOf(services, services.registry.get('product'), PRODUCT_FILTERS),
]

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Query = SelectQueryBuilder<any, any, any>

/**
 * `from {entity} as t` joined to product, category, brand and warehouse, narrowed by the entity's own
 * params (`ownParams`), the product filters and the caller's product data permission.
 */
export async function productJoinedBase(
  services: Services,
  db: Db,
  ctx: RequestContext,
  entity: EntityModel,
  ownParams: readonly QueryParam[],
  values: Record<string, unknown>,
): Promise<Query> {
  const { registry, codec, databases } = services
  const product = registry.get('product')
  const descendants = (name: string, id: string) => treeDescendants(db, registry.get(name), id)
  const conditions = [
    ...(await buildConditions({ entity, kind: databases.kind, codec, alias: 't', params: ownParams, values, descendants })),
    ...(await buildConditions({ entity: product, kind: databases.kind, codec, alias: 'p', params: PRODUCT_FILTERS, values, descendants })),
  ]
  let base: Query = db
    .selectFrom(`${entity.table} as t`)
    .innerJoin(`${product.table} as p`, 'p.id', 't.product_id')
    .innerJoin(`${registry.get('storeCenter').table} as s`, 's.id', 't.sc_id')
    .leftJoin(`${registry.get('productCategory').table} as c`, 'c.id', 'p.category_id')
    .leftJoin(`${registry.get('productBrand').table} as b`, 'b.id', 'p.brand_id')
  if (conditions.length) base = base.where((eb) => eb.and(conditions.map((c) => c(eb))))
  const permissionType = product.file.dataPermission?.type
  if (permissionType !== undefined && services.store.dataFilter) {
    const predicate: Expression<SqlBool> | undefined = await services.store.dataFilter(db, ctx, permissionType, {
      product: 'p',
      category: 'c',
      brand: 'b',
    })
    if (predicate) base = base.where(predicate)
  }
  return base
}

/** The product and warehouse columns every stock row answers. */
export function selectProductColumns(q: Query): Query {
  return q.select([
    't.id',
    't.product_id',
    't.sc_id',
    'p.code as product_code',
    'p.name as product_name',
    'p.sku_code',
    'p.external_code',
    'p.unit',
    'p.spec',
    'p.category_id',
    'c.name as category_name',
    'p.brand_id',
    'b.name as brand_name',
    's.code as sc_code',
    's.name as sc_name',
  ])
}

export function productColumns(row: Record<string, unknown>) {
  return {
    id: row.id,
    productId: row.product_id,
    productCode: row.product_code,
    productName: row.product_name,
    skuCode: row.sku_code ?? null,
    externalCode: row.external_code ?? null,
    unit: row.unit ?? null,
    spec: row.spec ?? null,
    categoryId: row.category_id ?? null,
    categoryName: row.category_name ?? null,
    brandId: row.brand_id ?? null,
    brandName: row.brand_name ?? null,
    scId: row.sc_id,
    scCode: row.sc_code,
    scName: row.sc_name,
  }
}

export { pageArgs } from '../../platform/page-args.js'

export async function countOf(base: Query): Promise<number> {
  return Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0)
}
