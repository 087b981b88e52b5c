import Decimal from 'decimal.js'
import { PostgresAdapter } from 'kysely'
import type { Db } from '../db/dialect.js'
import { auditColumns, updateColumns } from '../platform/audit-columns.js'
import { invalid } from '../platform/errors.js'
import { newId } from '../platform/ids.js'
import type { RequestContext } from '../platform/request-context.js'
import { PRODUCT_TYPE, STOCK_BIZ_TYPE } from '../../shared/generated/enum-codes.js'
import { checkDecimal, fitsDecimalColumn } from '../../shared/metadata/decimal-grammar.js'
import {
  adjustCostPrice,
  issueAtAmount,
  issueAtAverage,
  receiveAtAverage,
  receiveAtPrice,
  type CostMove,
  type CostState,
} from './stock-cost.js'

/**
 * The stock ledger: one row per (product, warehouse) in tbl_product_stock holding quantity, moving
 * average unit cost and value, and one tbl_product_stock_log row per move. Documents call it inside
 * their own transaction (`inTransaction`), so a failed approval leaves neither stock nor log behind.
 *
 * Concurrency (no lost update, never negative stock):
 * - PostgreSQL: the row is read `FOR UPDATE`; a missing row is first created with
 *   `INSERT … ON CONFLICT (product_id, sc_id) DO NOTHING` (the unique index comes from uniqueTogether in
 *   product-stock.json), which waits for a concurrent creator, so every writer ends up locking the same
 *   row and computes from the committed values. Holds across server processes.
 * - SQLite: Kysely's SqliteDriver (node_modules/kysely/dist/esm/dialect/sqlite/sqlite-driver.js) has one
 *   connection guarded by a ConnectionMutex that a transaction holds from `begin` to `commit`, and the app
 *   opens one Kysely per tenant file (databases.ts), so transactions of a process never interleave. SQLite
 *   is the single-process deployment; across processes WAL snapshots make a stale writer fail rather
 *   than overwrite.
 * - The UPDATE also requires the quantity just read (v3's optimistic check) as a last guard.
 *
 * Cost: each move reads the product and the stock row by key, updates one row and appends one log row.
 * Nothing sums or replays the log, so posting stays O(1) as history grows.
 *
 * Log sign convention: `stock_num` and `tax_amount` of a log row are signed changes (out is negative).
 * Invariant, per product and warehouse: Σ log stock_num = stock_num and Σ log tax_amount = tax_amount.
 * Where costing changes the value by more than the move's own amount (the residue written off when the
 * quantity reaches 0; a return credited above the book value) a second row with quantity 0 and a remark
 * carries the difference. `Posted.taxAmount` is the value moved, not signed.
 * Document lines of several products should be posted in a stable order (e.g. by productId) so two
 * approvals never wait on each other's rows in opposite order (PostgreSQL would abort one as a deadlock).
 */
export interface StockBiz {
  bizType: number /* STOCK_BIZ_TYPE 1..11 */
  bizId: string
  bizCode: string
  bizDetailId?: string
}
export interface StockMove extends StockBiz {
  productId: string
  scId: string
  num: number /* integer > 0 */
}
export interface Posted {
  taxPrice: string /* unit cost after, 6 places */
  taxAmount: string /* amount of this move, 2 places */
  stockNum: number /* after */
}
export interface StockMovedEvent {
  productId: string
  scId: string
  num: number
  direction: 'in' | 'out'
}
export type StockMovedListener = (trx: Db, ctx: RequestContext, e: StockMovedEvent) => Promise<void>

/* Tables and columns as declared in schemas/entities/product-stock*.json, product.json, store-center.json. */
const STOCK = 'tbl_product_stock'
const LOG = 'tbl_product_stock_log'
const PRODUCT = 'base_data_product'
const STORE_CENTER = 'base_data_store_center'

/**
 * Listeners are process-wide (domain code has no app instance) and kept in a Set: registering the same
 * function again is a no-op, so a module-level listener registered by every app of a test process runs
 * once per move. A listener that closes over one app's state should remove itself with the function
 * returned here when that app closes (`app.addHook('onClose', off)`). Listeners run in registration
 * order inside the posting transaction; one that throws fails the move, and so the whole approval.
 */
const listeners = new Set<StockMovedListener>()

export function onStockMoved(listener: StockMovedListener): () => void {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

const BIZ_TYPES = new Set<number>(Object.values(STOCK_BIZ_TYPE))
/** NUMERIC(24, 2) and NUMERIC(24, 6) of taxAmount and taxPrice in product-stock.json and product-stock-log.json. */
const AMOUNT_COLUMN = { precision: 24, scale: 2 }
const PRICE_COLUMN = { precision: 24, scale: 6 }
/** What a caller may pass as a price or amount: the shared grammar, 18 integer digits and 10 places at most, not negative. */
const MONEY_TEXT = { precision: 28, scale: 10 }

function requireTransaction(trx: Db) {
  if (!trx.isTransaction) throw new Error('the stock ledger runs inside the caller transaction (inTransaction)')
}

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter

function checkBiz(biz: StockBiz) {
  if (!BIZ_TYPES.has(biz.bizType)) throw invalid('库存变动业务类型不正确！', 'bizType')
  for (const key of ['bizId', 'bizCode'] as const) {
    const v = biz[key]
    if (typeof v !== 'string' || !v.trim() || v.length > 64) throw invalid('库存变动的业务单据不正确！', key)
  }
  if (biz.bizDetailId !== undefined && (typeof biz.bizDetailId !== 'string' || biz.bizDetailId.length > 64))
    throw invalid('库存变动的业务单据明细不正确！', 'bizDetailId')
}

function checkPlace(move: { productId: string; scId: string }) {
  for (const key of ['productId', 'scId'] as const)
    if (typeof move[key] !== 'string' || !move[key].trim()) throw invalid(key === 'productId' ? '请选择商品！' : '请选择仓库！', key)
}

function checkMove(move: StockMove) {
  checkBiz(move)
  checkPlace(move)
  if (!Number.isSafeInteger(move.num) || move.num <= 0) throw invalid('库存变动数量必须为正整数！', 'num')
}

/** A non-negative decimal given by the caller as text, or undefined when absent. */
function money(value: string | undefined, label: string, field: string): string | undefined {
  if (value === undefined || value === null) return undefined
  const text = String(value).trim()
  if (checkDecimal(text, MONEY_TEXT) || text.startsWith('-')) throw invalid(`${label}必须是不小于0的数字！`, field)
  return text
}

interface ProductInfo {
  code: string
  name: string
  purchasePrice: string | null
}

/** The product of a move: it must exist and be a NORMAL product (bundles hold no stock of their own). */
async function stockedProduct(trx: Db, productId: string): Promise<ProductInfo> {
  const row = await trx
    .selectFrom(PRODUCT)
    .select(['code', 'name', 'product_type', 'purchase_price'])
    .where('id', '=', productId)
    .executeTakeFirst()
  if (!row) throw invalid('商品不存在！', 'productId')
  const info = { code: String(row.code), name: String(row.name), purchasePrice: row.purchase_price == null ? null : String(row.purchase_price) }
  if (Number(row.product_type) !== PRODUCT_TYPE.NORMAL)
    throw invalid(`商品（${info.code}）${info.name}是组合商品，组合商品不单独管理库存，请按单品出入库！`, 'productId')
  return info
}

interface StockRow extends CostState {
  id: string
}

async function readRow(trx: Db, productId: string, scId: string, lock: boolean): Promise<StockRow | undefined> {
  let q = trx
    .selectFrom(STOCK)
    .select(['id', 'stock_num', 'tax_price', 'tax_amount'])
    .where('product_id', '=', productId)
    .where('sc_id', '=', scId)
  if (lock && isPostgres(trx)) q = q.forUpdate()
  const row = await q.executeTakeFirst()
  if (!row) return undefined
  return {
    id: String(row.id),
    stockNum: Number(row.stock_num ?? 0),
    taxPrice: new Decimal(String(row.tax_price ?? 0)).toFixed(6),
    taxAmount: new Decimal(String(row.tax_amount ?? 0)).toFixed(2),
  }
}

/** Locks the stock row, creating it empty first when missing; `created` tells whether this call made it. */
async function lockOrCreate(trx: Db, ctx: RequestContext, productId: string, scId: string) {
  const found = await readRow(trx, productId, scId, true)
  if (found) return { row: found, created: false }
  const sc = await trx.selectFrom(STORE_CENTER).select('id').where('id', '=', scId).executeTakeFirst()
  if (!sc) throw invalid('仓库不存在！', 'scId')
  const inserted = await trx
    .insertInto(STOCK)
    .values({ id: newId(), product_id: productId, sc_id: scId, stock_num: 0, tax_price: '0.000000', tax_amount: '0.00', ...auditColumns(ctx) })
    .onConflict((oc) => oc.columns(['product_id', 'sc_id']).doNothing())
    .returning('id')
    .execute()
  const row = await readRow(trx, productId, scId, true)
  if (!row) throw new Error(`stock row of ${productId}/${scId} missing after upsert`)
  return { row, created: inserted.length > 0 }
}

/** Writes the new state (guarded by the state read) and appends the log row; answers the move. */
async function post(
  trx: Db,
  ctx: RequestContext,
  move: StockBiz & { productId: string; scId: string },
  before: StockRow,
  result: CostMove,
  signedNum: number,
  signedAmount: string,
  failure: string,
  subject = '',
) {
  const { after } = result
  if (
    !Number.isSafeInteger(after.stockNum) ||
    ![after.taxAmount, result.amount].every((v) => fitsDecimalColumn(v, AMOUNT_COLUMN)) ||
    !fitsDecimalColumn(after.taxPrice, PRICE_COLUMN)
  )
    throw invalid(`${subject}库存数量或金额超出允许范围！`)
  const updated = await trx
    .updateTable(STOCK)
    .set({ stock_num: after.stockNum, tax_price: after.taxPrice, tax_amount: after.taxAmount, ...updateColumns(ctx) })
    .where('id', '=', before.id)
    .where('stock_num', '=', before.stockNum)
    .executeTakeFirst()
  if (Number(updated.numUpdatedRows) !== 1) throw invalid(failure)
  const logRow = (ori: { stockNum: number; taxPrice: string }, num: number, amount: string, remark: string | null) => ({
    id: newId(),
    sc_id: move.scId,
    product_id: move.productId,
    ori_tax_price: ori.taxPrice,
    cur_tax_price: after.taxPrice,
    ori_stock_num: ori.stockNum,
    cur_stock_num: after.stockNum,
    stock_num: num,
    tax_amount: amount,
    biz_id: move.bizId,
    biz_code: move.bizCode,
    biz_detail_id: move.bizDetailId ?? null,
    biz_type: move.bizType,
    remark,
    ...auditColumns(ctx),
  })
  const rows = [logRow(before, signedNum, signedAmount, null)]
  const residue = new Decimal(after.taxAmount).minus(before.taxAmount).minus(signedAmount)
  if (!residue.isZero())
    rows.push(
      logRow(
        after,
        0,
        residue.toFixed(2),
        after.stockNum === 0 ? '库存数量为0，核销剩余库存金额' : '出库金额超过库存金额，库存金额核销至0',
      ),
    )
  await trx.insertInto(LOG).values(rows).execute()
  return after
}

async function notify(trx: Db, ctx: RequestContext, e: StockMovedEvent) {
  for (const listener of listeners) await listener(trx, ctx, e)
}

/**
 * Goods in. With `taxPrice` (purchase receive, transfer receive) the average is recomputed; otherwise the
 * goods come in at the current average, except on a row this call creates, which starts from
 * `defaultTaxPrice` or else the product's purchase price.
 */
export async function addStock(
  trx: Db,
  ctx: RequestContext,
  move: StockMove & { taxPrice?: string; defaultTaxPrice?: string },
): Promise<Posted> {
  requireTransaction(trx)
  checkMove(move)
  const taxPrice = money(move.taxPrice, '含税价格', 'taxPrice')
  const defaultTaxPrice = money(move.defaultTaxPrice, '默认含税价格', 'defaultTaxPrice')
  const product = await stockedProduct(trx, move.productId)
  const { row, created } = await lockOrCreate(trx, ctx, move.productId, move.scId)
  const result =
    taxPrice !== undefined
      ? receiveAtPrice(row, move.num, taxPrice)
      : created
        ? receiveAtPrice(row, move.num, defaultTaxPrice ?? product.purchasePrice ?? 0)
        : receiveAtAverage(row, move.num)
  const after = await post(trx, ctx, move, row, result, move.num, result.amount, `商品（${product.code}）${product.name}入库失败，请稍后重试！`, `商品（${product.code}）${product.name}`)
  await notify(trx, ctx, { productId: move.productId, scId: move.scId, num: move.num, direction: 'in' })
  return { taxPrice: after.taxPrice, taxAmount: result.amount, stockNum: after.stockNum }
}

/** Goods out at the current average, or at `taxAmount` (purchase return). Stock never goes negative. */
export async function subStock(trx: Db, ctx: RequestContext, move: StockMove & { taxAmount?: string }): Promise<Posted> {
  requireTransaction(trx)
  checkMove(move)
  const taxAmount = money(move.taxAmount, '含税金额', 'taxAmount')
  const product = await stockedProduct(trx, move.productId)
  const row = await readRow(trx, move.productId, move.scId, true)
  if (!row) throw invalid(`商品（${product.code}）${product.name}当前库存为0，无法出库！`)
  if (row.stockNum < move.num) throw invalid(`商品（${product.code}）${product.name}当前库存为${row.stockNum}，库存不足，无法出库！`)
  const result = taxAmount !== undefined ? issueAtAmount(row, move.num, taxAmount) : issueAtAverage(row, move.num)
  const after = await post(
    trx,
    ctx,
    move,
    row,
    result,
    -move.num,
    new Decimal(result.amount).negated().toFixed(2),
    `商品（${product.code}）${product.name}出库失败，请稍后重试！`,
    `商品（${product.code}）${product.name}`,
  )
  await notify(trx, ctx, { productId: move.productId, scId: move.scId, num: move.num, direction: 'out' })
  return { taxPrice: after.taxPrice, taxAmount: result.amount, stockNum: after.stockNum }
}

/**
 * Before a document issues several lines of one product: refuses, naming the stock before the document and
 * the quantity the whole document needs, when the stock cannot cover them all (otherwise the second line
 * would report the stock the first line left). Locks the row as subStock does, in the caller's order.
 */
export async function checkIssuable(trx: Db, productId: string, scId: string, needed: number): Promise<void> {
  requireTransaction(trx)
  const product = await stockedProduct(trx, productId)
  const row = await readRow(trx, productId, scId, true)
  const stock = row?.stockNum ?? 0
  if (stock < needed) throw invalid(`商品（${product.code}）${product.name}当前库存为${stock}，本单共需出库${needed}，库存不足，无法出库！`)
}

/**
 * Cost adjust (biz type 9): sets the unit cost (6 places) of an existing row and revalues it
 * (amount = round2(price × stock)). A product with no stock row in the warehouse is skipped (undefined).
 * `taxAmount` is the signed change of value (the sheet's diff amount); the log row has quantity change 0.
 */
export async function adjustCost(
  trx: Db,
  ctx: RequestContext,
  move: StockBiz & { productId: string; scId: string; taxPrice: string },
): Promise<(Posted & { oriTaxPrice: string; stockNum: number }) | undefined> {
  requireTransaction(trx)
  checkBiz(move)
  checkPlace(move)
  if (move.bizType !== STOCK_BIZ_TYPE.STOCK_COST_ADJUST) throw invalid('库存变动业务类型不正确！', 'bizType')
  const price = money(move.taxPrice, '调整后含税成本价', 'taxPrice')
  if (price === undefined) throw invalid('调整后含税成本价必须是不小于0的数字！', 'taxPrice')
  const row = await readRow(trx, move.productId, move.scId, true)
  if (!row) return undefined
  const result = adjustCostPrice(row, price)
  const after = await post(trx, ctx, move, row, result, 0, result.amount, '库存成本调整失败，请稍后重试！')
  return { taxPrice: after.taxPrice, taxAmount: result.amount, stockNum: after.stockNum, oriTaxPrice: row.taxPrice }
}

/** The stock row of a product in a warehouse, unlocked (for display and document previews). */
export async function currentStock(
  db: Db,
  productId: string,
  scId: string,
): Promise<{ stockNum: number; taxPrice: string; taxAmount: string } | undefined> {
  const row = await readRow(db, productId, scId, false)
  return row && { stockNum: row.stockNum, taxPrice: row.taxPrice, taxAmount: row.taxAmount }
}
