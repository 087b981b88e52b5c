import Decimal from 'decimal.js'
import { PostgresAdapter, sql } from 'kysely'
import { writeTogether, type PendingWrite } from '../../db/write-together.js'
import type { Db } from '../../db/dialect.js'
import { valuesList, type ValuesColumnType } from '../../db/values-list.js'
import { executePrepared } from '../../db/prepared-statements.js'
import { auditColumns, updateColumns } from '../../platform/audit-columns.js'
import { invalid } from '../../platform/errors.js'
import { newId } from '../../platform/ids.js'
import type { RequestContext } from '../../platform/request-context.js'
import { PRODUCT_TYPE, STOCK_BIZ_TYPE } from '../../../shared/generated/enum-codes.js'
import { checkDecimal, fitsDecimalColumn } from '../../../shared/metadata/decimal-grammar.js'
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
 * - PostgreSQL: the rows are read `FOR UPDATE`, all the rows of a posting in one statement sorted by
 *   (product_id, sc_id), so postings lock shared rows in one order and never deadlock, whatever the
 *   order of their lines; a missing row is first created with `INSERT … ON CONFLICT (product_id, sc_id)
 *   DO NOTHING` (the unique index comes from uniqueTogether in product-stock.json), which waits for a
 *   concurrent creator, so every writer ends up locking the same row and computes from the committed
 *   values. Holds across server processes.
 * - SQLite: Kysely's SqliteDriver (node_modules/kysely/dist/esm/dialect/sqlite/sqlite-driver.js) has one
 *   connection guarded by a ConnectionMutex that a transaction holds from `begin` to `commit`, and the app
 *   opens one Kysely per tenant file (databases.ts), so transactions of a process never interleave. SQLite
 *   is the single-process deployment; across processes WAL snapshots make a stale writer fail rather
 *   than overwrite.
 * - The UPDATE also requires the quantity just read (v3's optimistic check) as a last guard.
 *
 * Cost: a posting (postStockMoves: one move, or all the lines of a document) reads its stock rows and
 * their products by key in one statement, updates the rows in one statement and appends the log rows in
 * one; a document's approval costs the same few round trips whatever its number of lines. Nothing sums
 * or replays the log, so posting stays O(1) as history grows.
 *
 * Log sign convention: `stock_num` and `tax_amount` of a log row are signed changes (out is negative).
 * Invariant, per product and warehouse: Σ log stock_num = stock_num and Σ log tax_amount = tax_amount.
 * Where costing changes the value by more than the move's own amount (the residue written off when the
 * quantity reaches 0; a return credited above the book value) a second row with quantity 0 and a remark
 * carries the difference. `Posted.taxAmount` is the value moved, not signed.
 * Callers that post row by row (addStock/subStock in a loop) should do so in a stable order (e.g. by
 * productId) so two transactions never wait on each other's rows in opposite order (PostgreSQL would
 * abort one as a deadlock); one postStockMoves call orders its own locks.
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
/**
 * Told every move of one posting at once (a document's lines), inside the posting transaction, once the
 * moves are computed and checked, just before they are written. It may answer statements (built from
 * `trx`, not yet run) that are written with the posting: in its one statement on PostgreSQL, after the
 * stock rows are locked, so a listener adds no round trip while they are held.
 */
export type StockMovedListener = (trx: Db, ctx: RequestContext, moves: StockMovedEvent[]) => Promise<void | PostingWrite[]>

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

interface StockRow extends CostState {
  id: string
}

const rowOf = (row: Record<string, unknown>): StockRow => ({
  id: String(row.id),
  stockNum: Number(row.stock_num ?? 0),
  taxPrice: new Decimal(String(row.tax_price ?? 0)).toFixed(6),
  taxAmount: new Decimal(String(row.tax_amount ?? 0)).toFixed(2),
})

async function readRow(trx: Db, productId: string, scId: string, lock: boolean): Promise<StockRow | undefined> {
  let q = trx
    .selectFrom(STOCK)
    .select(['id', 'stock_num', 'tax_price', 'tax_amount'])
    .where('product_id', '=', productId)
    .where('sc_id', '=', scId)
  if (lock && isPostgres(trx)) q = q.forUpdate()
  const row = await q.executeTakeFirst()
  return row && rowOf(row)
}

/** Rows per statement of the batched reads and writes: far below both databases' limit of bound values. */
const ROWS_PER_STATEMENT = 500

function chunks<T>(items: T[], size = ROWS_PER_STATEMENT): T[][] {
  const out: T[][] = []
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size))
  return out
}

/** A (product, warehouse) key; ids are ASCII, so `<` orders them as the databases' byte order does. */
const keyOf = (m: { productId: string; scId: string }) => `${m.productId}\u0000${m.scId}`
const byKey = (a: { productId: string; scId: string }, b: { productId: string; scId: string }) =>
  a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : a.scId < b.scId ? -1 : a.scId > b.scId ? 1 : 0

const productRow = (row: Record<string, unknown>): ProductRow => ({
  code: String(row.code),
  name: String(row.name),
  purchasePrice: row.purchase_price == null ? null : String(row.purchase_price),
  normal: Number(row.product_type) === PRODUCT_TYPE.NORMAL,
})

/** Adds to `products` those of `ids` it lacks, in one SELECT. */
async function readProducts(trx: Db, products: Map<string, ProductRow>, ids: string[]): Promise<void> {
  const missing = [...new Set(ids)].filter((id) => !products.has(id))
  for (const part of chunks(missing))
    for (const row of await trx.selectFrom(PRODUCT).select(['id', 'code', 'name', 'product_type', 'purchase_price']).where('id', 'in', part).execute())
      products.set(String(row.id), productRow(row))
}

interface ProductRow extends ProductInfo {
  normal: boolean
}

/** The product of a move: it must exist and be a NORMAL product (bundles hold no stock of their own). */
function stockedProduct(products: Map<string, ProductRow>, productId: string): ProductInfo {
  const info = products.get(productId)
  if (!info) throw invalid('商品不存在！', 'productId')
  if (!info.normal) throw invalid(`商品（${info.code}）${info.name}是组合商品，组合商品不单独管理库存，请按单品出入库！`, 'productId')
  return info
}

/**
 * Creates the missing rows of `keys` (sorted) empty, in one INSERT … ON CONFLICT DO NOTHING; answers the
 * keys this call created. A concurrent creator of the same key makes the insert wait for its commit, and
 * every caller inserts in key order, so creators never wait on each other in a cycle.
 */
async function createMissing(trx: Db, ctx: RequestContext, keys: { productId: string; scId: string }[]): Promise<Set<string>> {
  const created = new Set<string>()
  const audit = auditColumns(ctx)
  for (const part of chunks(keys)) {
    const rows = part.map((k) => ({ id: newId(), product_id: k.productId, sc_id: k.scId, stock_num: 0, tax_price: '0.000000', tax_amount: '0.00', ...audit }))
    const inserted = await trx
      .insertInto(STOCK)
      .values(rows)
      .onConflict((oc) => oc.columns(['product_id', 'sc_id']).doNothing())
      .returning(['product_id', 'sc_id'])
      .execute()
    for (const r of inserted) created.add(keyOf({ productId: String(r.product_id), scId: String(r.sc_id) }))
  }
  return created
}

/**
 * Locks (PostgreSQL) the existing stock rows of `keys` in key order, nothing else: a batch of approvals
 * takes every row its documents will post before the first posting (the lock order, platform/db-tx.ts),
 * so two batches over the same products queue instead of deadlocking. Rows created later by a posting
 * are new to both and locked by it.
 */
export async function lockStockRows(trx: Db, keys: { productId: string; scId: string }[]): Promise<void> {
  if (!keys.length || !isPostgres(trx)) return
  const unique = new Map(keys.map((k) => [keyOf(k), k]))
  const sorted = [...unique.values()].sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : a.scId < b.scId ? -1 : a.scId > b.scId ? 1 : 0))
  for (const part of chunks(sorted))
    await trx
      .selectFrom(STOCK)
      .select('id')
      .where((eb) => eb(eb.refTuple('product_id', 'sc_id'), 'in', part.map((k) => eb.tuple(k.productId, k.scId))))
      .orderBy('product_id')
      .orderBy('sc_id')
      .forUpdate()
      .execute()
}

/**
 * The stock rows of `keys` (sorted), with their products, in one `SELECT … ORDER BY product_id, sc_id
 * FOR UPDATE OF` the stock on PostgreSQL: rows are locked in the order the sort returns them, so two
 * postings over the same rows, whatever the order of their lines, take the locks in the same order and
 * never deadlock. The products read beside them go into `products`.
 */
async function lockRows(trx: Db, keys: { productId: string; scId: string }[], products: Map<string, ProductRow>): Promise<Map<string, StockRow>> {
  const rows = new Map<string, StockRow>()
  const pg = isPostgres(trx)
  for (const part of chunks(keys)) {
    // PostgreSQL: the products come with the rows (a round trip fewer). SQLite has no round trips, and a
    // join costs more to prepare than a second plain statement (Kysely prepares every statement anew).
    let q = pg
      ? trx
          .selectFrom(`${STOCK} as s`)
          .leftJoin(`${PRODUCT} as p`, 'p.id', 's.product_id')
          .select(['s.id', 's.product_id', 's.sc_id', 's.stock_num', 's.tax_price', 's.tax_amount', 'p.code', 'p.name', 'p.product_type', 'p.purchase_price'])
      : trx.selectFrom(`${STOCK} as s`).select(['s.id', 's.product_id', 's.sc_id', 's.stock_num', 's.tax_price', 's.tax_amount'])
    // One row (addStock, subStock): plain equalities, the cheaper statement to prepare.
    if (part.length === 1) q = q.where('s.product_id', '=', part[0].productId).where('s.sc_id', '=', part[0].scId)
    else
      q = q
        .where((eb) => eb(eb.refTuple('s.product_id', 's.sc_id'), 'in', part.map((k) => eb.tuple(k.productId, k.scId))))
        .orderBy('s.product_id')
        .orderBy('s.sc_id')
    if (pg) q = q.forUpdate(['s'])
    // Named on PostgreSQL: every approval runs it, and planning the tuple list cost more than the lookup.
    for (const r of await executePrepared(trx, q)) {
      rows.set(keyOf({ productId: String(r.product_id), scId: String(r.sc_id) }), rowOf(r))
      if ('code' in r && r.code != null) products.set(String(r.product_id), productRow(r))
    }
  }
  return rows
}

/** What a batch writes for one stock row: its state as read (the guard) and after all its moves. */
interface RowChange {
  before: StockRow
  after: CostState
  /** The failure message of the row's first move, should the guard not match. */
  failure: string
}

type LogRow = Record<string, unknown>

/** The columns of a log row (logRows) and their types in a values list (logInsert). */
const LOG_COLUMNS: ReadonlyArray<readonly [string, ValuesColumnType]> = [
  ['id', 'text'], ['sc_id', 'text'], ['product_id', 'text'], ['ori_tax_price', 'numeric'], ['cur_tax_price', 'numeric'],
  ['ori_stock_num', 'bigint'], ['cur_stock_num', 'bigint'], ['stock_num', 'bigint'], ['tax_amount', 'numeric'],
  ['biz_id', 'text'], ['biz_code', 'text'], ['biz_detail_id', 'text'], ['biz_type', 'bigint'], ['remark', 'text'],
  ['create_by', 'text'], ['create_by_id', 'text'], ['create_time', 'timestamp'], ['update_by', 'text'], ['update_by_id', 'text'], ['update_time', 'timestamp'],
]

/**
 * The INSERT of log rows from a values list: on PostgreSQL one text whatever the number of rows (a prepared
 * statement for every document, and 20 bound arrays to build instead of 20 values a row).
 */
function logInsert(trx: Db, logs: LogRow[]) {
  const values = valuesList(trx, 'l', LOG_COLUMNS.map(([column, type]) => [`l_${column}`, type] as const), logs.map((row) => LOG_COLUMNS.map(([column]) => row[column])))
  return trx.insertInto(LOG).columns(LOG_COLUMNS.map(([column]) => column)).expression(trx.selectFrom(values).selectAll())
}

function logRows(
  ctx: RequestContext,
  move: StockBiz & { productId: string; scId: string },
  before: CostState,
  result: CostMove,
  signedNum: number,
  signedAmount: string,
): LogRow[] {
  const { after } = result
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
      logRow(after, 0, residue.toFixed(2), after.stockNum === 0 ? '库存数量为0，核销剩余库存金额' : '出库金额超过库存金额，库存金额核销至0'),
    )
  return rows
}

function checkRange(result: CostMove, subject: string) {
  const { after } = result
  if (
    !Number.isSafeInteger(after.stockNum) ||
    ![after.taxAmount, result.amount].every((v) => fitsDecimalColumn(v, AMOUNT_COLUMN)) ||
    !fitsDecimalColumn(after.taxPrice, PRICE_COLUMN)
  )
    throw invalid(`${subject}库存数量或金额超出允许范围！`)
}

/** The guarded UPDATE of the changed rows (one chunk), answering the ids it updated. */
function updateRows(trx: Db, ctx: RequestContext, part: RowChange[]) {
  const audit = updateColumns(ctx)
  if (part.length === 1) {
    // One row: the plain guarded UPDATE, cheaper to prepare than one over a values list.
    const [c] = part
    return trx
      .updateTable(STOCK)
      .set({ stock_num: c.after.stockNum, tax_price: c.after.taxPrice, tax_amount: c.after.taxAmount, ...audit })
      .where('id', '=', c.before.id)
      .where('stock_num', '=', c.before.stockNum)
      .returning('id')
  }
  const values = valuesList(
    trx,
    'v',
    [['v_id', 'text'], ['v_old_num', 'bigint'], ['v_num', 'bigint'], ['v_price', 'numeric'], ['v_amount', 'numeric']],
    part.map((c) => [c.before.id, c.before.stockNum, c.after.stockNum, c.after.taxPrice, c.after.taxAmount]),
  )
  return trx
    .updateTable(STOCK)
    .from(values)
    .set({ stock_num: sql.ref('v_num'), tax_price: sql.ref('v_price'), tax_amount: sql.ref('v_amount'), ...audit })
    .where(sql.ref('id'), '=', sql.ref('v_id'))
    .where(sql.ref('stock_num'), '=', sql.ref('v_old_num'))
    .returning(sql<string>`id`.as('id'))
}

/** A chunk's guard: every row read must have been updated, else the first one that was not names the failure. */
function checkUpdated(part: RowChange[], updated: { id: unknown }[]) {
  if (updated.length === part.length) return
  const done = new Set(updated.map((r) => String(r.id)))
  throw invalid((part.find((c) => !done.has(c.before.id)) ?? part[0]).failure)
}

/** A statement written with a posting (see PostingOptions.alsoWrite). */
export type PostingWrite = PendingWrite

/**
 * A posting small enough to be written in one PostgreSQL statement: its bound values stay far below the
 * 65,535 a statement allows (20 a log row, 5 a stock row, and the caller's few statements).
 */
const ROWS_PER_COMBINED_WRITE = 200

/**
 * Writes the new state of every changed row, guarded by the quantity read (a row whose quantity moved
 * meanwhile is not updated, and the batch fails), appends the log rows and runs the caller's `extra`
 * statements. A posting of up to ROWS_PER_COMBINED_WRITE rows is one statement on PostgreSQL (writeTogether:
 * the update, the insert and the extras as writable CTEs): the locked stock rows wait for one round trip
 * instead of three or more, which is what bounds concurrent approvals of the same products. Larger ones:
 * one UPDATE … FROM (VALUES …) per chunk, one multi-row INSERT per chunk, then the extras.
 */
async function writeChanges(trx: Db, ctx: RequestContext, changes: RowChange[], logs: LogRow[], extra: PostingWrite[] = []) {
  if (changes.length && changes.length <= ROWS_PER_COMBINED_WRITE && logs.length <= ROWS_PER_COMBINED_WRITE) {
    // The stock rows, the log and the callers' rows (line costs, plan counts) are different tables.
    const also = [...(logs.length ? [logInsert(trx, logs)] : []), ...extra]
    checkUpdated(changes, await writeTogether(trx, updateRows(trx, ctx, changes), also))
    return
  }
  for (const part of chunks(changes)) checkUpdated(part, await updateRows(trx, ctx, part).execute())
  // 20 values a row.
  for (const part of chunks(logs)) await logInsert(trx, part).execute()
  for (const statement of extra) await statement.execute()
}

/** The listeners told `events`; answers the statements they ask to write with the posting. */
async function notify(trx: Db, ctx: RequestContext, events: StockMovedEvent[]): Promise<PostingWrite[]> {
  const statements: PostingWrite[] = []
  if (!events.length) return statements
  for (const listener of listeners) statements.push(...((await listener(trx, ctx, events)) ?? []))
  return statements
}

/**
 * One move of a batch: goods in (`direction: 'in'`, see addStock for the prices) or out (see subStock).
 */
export type LedgerMove = StockMove &
  ({ direction: 'in'; taxPrice?: string; defaultTaxPrice?: string } | { direction: 'out'; taxAmount?: string })

/**
 * Posts a batch of moves (the lines of a document) in a handful of statements, whatever their number:
 * the products in one SELECT; the stock rows in one SELECT … FOR UPDATE in key order (missing rows of
 * goods in created first in one INSERT … ON CONFLICT DO NOTHING); the costing in decimal.js, move after
 * move in the caller's order (several moves of one row see each other's effect, as one move after another
 * would); the rows in one UPDATE, the log in one INSERT; the listeners once, with every move.
 *
 * Refusals are the ones a move-by-move posting would give, in the same order (the first failing move
 * names itself); nothing is written before all moves are computed. Where a row is issued by several
 * moves, the first of them checks the stock covers them all, naming the stock before the batch and the
 * quantity the whole batch needs.
 */
export interface PostingOptions {
  /**
   * Statements the caller writes with the posting's results (a document's line costs): built from the
   * same transaction, run with the stock update (in its statement on PostgreSQL, see writeChanges), so
   * they add no round trip while the stock rows are locked.
   */
  alsoWrite?: (posted: Posted[]) => PostingWrite[]
}

export async function postStockMoves(trx: Db, ctx: RequestContext, moves: LedgerMove[], options: PostingOptions = {}): Promise<Posted[]> {
  requireTransaction(trx)
  if (!moves.length) return []
  const prices = moves.map((move) => {
    checkMove(move)
    return move.direction === 'in'
      ? { taxPrice: money(move.taxPrice, '含税价格', 'taxPrice'), defaultTaxPrice: money(move.defaultTaxPrice, '默认含税价格', 'defaultTaxPrice') }
      : { taxAmount: money(move.taxAmount, '含税金额', 'taxAmount') }
  })
  const keys = new Map<string, { productId: string; scId: string }>()
  for (const m of moves) keys.set(keyOf(m), { productId: m.productId, scId: m.scId })
  const sorted = [...keys.values()].sort(byKey)
  const products = new Map<string, ProductRow>()
  // Goods out, or one row: locked at once (one statement when the rows exist, as most do), missing rows of
  // goods in created after. Goods in over several rows: all created first, then all locked, so no posting
  // holds some rows while it waits to create another (a concurrent creator may hold that one and wait for ours).
  const receiving = moves.some((m) => m.direction === 'in')
  const lockFirst = !receiving || sorted.length === 1
  let read = lockFirst ? await lockRows(trx, sorted, products) : new Map<string, StockRow>()
  let toCreate: typeof sorted = []
  if (receiving) {
    const unread = sorted.filter((k) => !read.has(keyOf(k)))
    await readProducts(trx, products, unread.map((k) => k.productId))
    // Only for goods in of stocked products: a refused move needs no row.
    const wanted = new Set(moves.filter((m) => m.direction === 'in' && products.get(m.productId)?.normal).map(keyOf))
    toCreate = unread.filter((k) => wanted.has(keyOf(k)))
  }
  const created = toCreate.length ? await createMissing(trx, ctx, toCreate) : new Set<string>()
  const warehouses = created.size
    ? new Set(
        (await trx.selectFrom(STORE_CENTER).select('id').where('id', 'in', [...new Set(toCreate.filter((k) => created.has(keyOf(k))).map((k) => k.scId))]).execute()).map((r) =>
          String(r.id),
        ),
      )
    : new Set<string>()
  if (!lockFirst || toCreate.length) read = await lockRows(trx, sorted, products)
  // Products of moves without a row (refused below, or a new row), or whose row names a missing product.
  await readProducts(trx, products, moves.map((m) => m.productId))

  // Several issues of one row: the first checks the whole need.
  const issues = new Map<string, number[]>()
  for (const m of moves) if (m.direction === 'out') issues.set(keyOf(m), [...(issues.get(keyOf(m)) ?? []), m.num])
  const current = new Map<string, CostState>()
  const changes = new Map<string, RowChange>()
  const logs: LogRow[] = []
  const posted: Posted[] = []
  moves.forEach((move, i) => {
    const key = keyOf(move)
    const product = stockedProduct(products, move.productId)
    const subject = `商品（${product.code}）${product.name}`
    const row = read.get(key)
    const fresh = created.has(key) && !current.has(key)
    if (fresh && !warehouses.has(move.scId)) throw invalid('仓库不存在！', 'scId')
    const state = current.get(key) ?? row
    let result: CostMove
    let signedAmount: string
    let failure: string
    if (move.direction === 'in') {
      if (!row || !state) throw new Error(`stock row of ${move.productId}/${move.scId} missing after upsert`)
      const { taxPrice, defaultTaxPrice } = prices[i] as { taxPrice?: string; defaultTaxPrice?: string }
      result =
        taxPrice !== undefined
          ? receiveAtPrice(state, move.num, taxPrice)
          : fresh
            ? receiveAtPrice(state, move.num, defaultTaxPrice ?? product.purchasePrice ?? 0)
            : receiveAtAverage(state, move.num)
      signedAmount = result.amount
      failure = `${subject}入库失败，请稍后重试！`
    } else {
      const nums = issues.get(key)
      if (nums && nums.length > 1) {
        issues.delete(key)
        const needed = nums.reduce((a, b) => a + b, 0)
        const stock = state?.stockNum ?? 0
        if (stock < needed) throw invalid(`${subject}当前库存为${stock}，本单共需出库${needed}，库存不足，无法出库！`)
      }
      if (!row || !state || fresh) throw invalid(`${subject}当前库存为0，无法出库！`)
      if (state.stockNum < move.num) throw invalid(`${subject}当前库存为${state.stockNum}，库存不足，无法出库！`)
      const { taxAmount } = prices[i] as { taxAmount?: string }
      result = taxAmount !== undefined ? issueAtAmount(state, move.num, taxAmount) : issueAtAverage(state, move.num)
      signedAmount = new Decimal(result.amount).negated().toFixed(2)
      failure = `${subject}出库失败，请稍后重试！`
    }
    checkRange(result, subject)
    logs.push(...logRows(ctx, move, state, result, move.direction === 'in' ? move.num : -move.num, signedAmount))
    current.set(key, result.after)
    const change = changes.get(key)
    if (change) change.after = result.after
    else changes.set(key, { before: row, after: result.after, failure })
    posted.push({ taxPrice: result.after.taxPrice, taxAmount: result.amount, stockNum: result.after.stockNum })
  })
  const told = await notify(
    trx,
    ctx,
    moves.map((m) => ({ productId: m.productId, scId: m.scId, num: m.num, direction: m.direction })),
  )
  await writeChanges(trx, ctx, [...changes.values()], logs, [...(options.alsoWrite?.(posted) ?? []), ...told])
  return posted
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
  const [posted] = await postStockMoves(trx, ctx, [{ ...move, direction: 'in' }])
  return posted
}

/** Goods out at the current average, or at `taxAmount` (purchase return). Stock never goes negative. */
export async function subStock(trx: Db, ctx: RequestContext, move: StockMove & { taxAmount?: string }): Promise<Posted> {
  const [posted] = await postStockMoves(trx, ctx, [{ ...move, direction: 'out' }])
  return posted
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
  checkRange(result, '')
  await writeChanges(trx, ctx, [{ before: row, after: result.after, failure: '库存成本调整失败，请稍后重试！' }], logRows(ctx, move, row, result, 0, result.amount))
  return { taxPrice: result.after.taxPrice, taxAmount: result.amount, stockNum: result.after.stockNum, oriTaxPrice: row.taxPrice }
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
