import dayjs from 'dayjs'
import { sql } from 'kysely'
import type { Db } from '../../db/dialect.js'
import { valuesList } from '../../db/values-list.js'
import type { Wire } from '../../engine/record-codec.js'
import { nextDocumentNumber } from '../../engine/document-number.js'
import { readSingleton } from '../../engine/singletons.js'
import { PRODUCT_TYPE, STOCK_BIZ_TYPE, TAKE_STOCK_PLAN_STATUS, TAKE_STOCK_PLAN_TYPE, TAKE_STOCK_SHEET_STATUS } from '../../../shared/generated/enum-codes.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { auditColumns, updateColumns } from '../../platform/audit-columns.js'
import { invalid, notFound } from '../../platform/errors.js'
import { newId } from '../../platform/ids.js'
import { OpLogType, writeOpLog } from '../../platform/op-log.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../../engine/services.js'
import { addStock, subStock, type PostingWrite, type StockMovedListener } from './stock-ledger.js'

/**
 * Stock-taking plan (盘点任务, domain-rules §2.6): not an approval document. 0 created → 6 diff created
 * → 9 finished, or 0/6 → 12 canceled. Tables tbl_take_stock_plan(_detail) as declared in
 * schemas/entities/take-stock-plan*.json.
 */
export const PlanStatus = TAKE_STOCK_PLAN_STATUS
const PLAN = 'tbl_take_stock_plan'
const DETAIL = 'tbl_take_stock_plan_detail'
const MAX_ALL = 2000
const ALL_NAME = '全场盘点'

export interface TakeStockConfig {
  showProduct: boolean
  showStock: boolean
  autoChangeStock: boolean
  allowChangeNum: boolean
  cancelHours: number
}

export async function takeStockConfig(services: Services, db: Db, ctx: RequestContext): Promise<TakeStockConfig> {
  return (await readSingleton(services, db, ctx, services.registry.get('takeStockConfig'))) as unknown as TakeStockConfig
}

/**
 * Plans still open `cancelHours` after creation are canceled. There is no scheduler (v3 used a Quartz
 * job per plan), so this runs lazily, in the transaction of whatever reads or uses plans: the plan list,
 * a plan action, a take-sheet save. A plan past its time can therefore never be used, and it shows as
 * canceled the next time anyone looks.
 */
export async function cancelOverduePlans(services: Services, trx: Db, ctx: RequestContext): Promise<void> {
  const { cancelHours } = await takeStockConfig(services, trx, ctx)
  const cutoff = dayjs().subtract(Number(cancelHours), 'hour').format('YYYY-MM-DD HH:mm:ss')
  await trx
    .updateTable(PLAN)
    .set({ take_status: PlanStatus.CANCELED })
    .where('take_status', 'in', [PlanStatus.CREATED, PlanStatus.DIFF_CREATED])
    .where('create_time', '<', cutoff)
    .execute()
}

export async function planHeader(db: Db, id: unknown): Promise<Wire> {
  if (isBlank(id) || typeof id !== 'string') throw invalid('请选择盘点任务', 'id')
  const row = await db.selectFrom(PLAN).selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw notFound('盘点任务不存在！')
  return { id: row.id, code: row.code, scId: row.sc_id, takeType: Number(row.take_type), takeStatus: Number(row.take_status) }
}

/** Stock quantities of products in a warehouse now (0 for a product without a stock row). */
async function stockNums(db: Db, scId: string, productIds: string[]): Promise<Map<string, number>> {
  const result = new Map<string, number>()
  for (let i = 0; i < productIds.length; i += 500) {
    const rows = await db
      .selectFrom('tbl_product_stock')
      .select(['product_id', 'stock_num'])
      .where('sc_id', '=', scId)
      .where('product_id', 'in', productIds.slice(i, i + 500))
      .execute()
    for (const r of rows) result.set(String(r.product_id), Number(r.stock_num))
  }
  return result
}

/** Appends plan lines for products not yet in the plan, each with the stock of this moment. */
export async function addPlanProducts(trx: Db, ctx: RequestContext, planId: string, scId: string, productIds: string[]) {
  const existing = await trx.selectFrom(DETAIL).select(['product_id', 'order_no']).where('plan_id', '=', planId).execute()
  const have = new Set(existing.map((r) => String(r.product_id)))
  const fresh = [...new Set(productIds)].filter((id) => !have.has(id))
  if (!fresh.length) return
  const stock = await stockNums(trx, scId, fresh)
  let orderNo = existing.reduce((max, r) => Math.max(max, Number(r.order_no ?? 0)), 0)
  const audit = auditColumns(ctx)
  const rows = fresh.map((productId) => ({
    id: newId(),
    plan_id: planId,
    product_id: productId,
    stock_num: stock.get(productId) ?? 0,
    ori_take_num: null,
    take_num: null,
    total_in_num: 0,
    total_out_num: 0,
    description: '',
    order_no: ++orderNo,
    ...audit,
  }))
  for (let i = 0; i < rows.length; i += 200) await trx.insertInto(DETAIL).values(rows.slice(i, i + 200)).execute()
}

function bizIdsOf(body: Wire, message: string): string[] {
  const raw = body.bizIds
  const ids = Array.isArray(raw) ? raw.filter((v) => typeof v === 'string' && v) : []
  if (!ids.length) throw invalid(message, 'bizIds')
  return [...new Set(ids as string[])]
}

/** Creates a plan: its products by take type with a stock snapshot (none for SIMPLE plans). */
export async function createPlan(services: Services, trx: Db, ctx: RequestContext, body: Wire): Promise<string> {
  const entity = services.registry.get('takeStockPlan')
  const scId = body.scId
  if (isBlank(scId) || typeof scId !== 'string') throw invalid('仓库不能为空', 'scId')
  if (!(await trx.selectFrom('base_data_store_center').select('id').where('id', '=', scId).executeTakeFirst())) throw invalid('仓库不存在', 'scId')
  const takeType = Number(body.takeType)
  if (isBlank(body.takeType) || !Object.values(TAKE_STOCK_PLAN_TYPE).includes(takeType as 0)) throw invalid('盘点类别不能为空', 'takeType')
  const description = isBlank(body.description) ? '' : String(body.description)
  if (description.length > 200) throw invalid('备注最多允许200个字符', 'description')

  const enabled = services.codec.toFilter(services.registry.get('product').byName.get('available')!, true)
  let bizIds: string[] = []
  let productIds: string[] = []
  const products = trx.selectFrom('base_data_product').where('product_type', '=', PRODUCT_TYPE.NORMAL)
  const normal = products.select('id')
  if (takeType === TAKE_STOCK_PLAN_TYPE.ALL) {
    const count = await products.where('available', '=', enabled).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst()
    if (Number(count?.n ?? 0) > MAX_ALL)
      throw invalid(`${ALL_NAME}最多支持${MAX_ALL}个商品，当前系统内已经超过${MAX_ALL}个商品，无法进行${ALL_NAME}`)
    productIds = (await normal.where('available', '=', enabled).orderBy('code').execute()).map((r) => String(r.id))
  } else if (takeType === TAKE_STOCK_PLAN_TYPE.CATEGORY) {
    bizIds = bizIdsOf(body, '请选择商品类目！')
    productIds = (await normal.where('category_id', 'in', bizIds).orderBy('code').execute()).map((r) => String(r.id))
  } else if (takeType === TAKE_STOCK_PLAN_TYPE.BRAND) {
    bizIds = bizIdsOf(body, '请选择商品品牌！')
    productIds = (await normal.where('brand_id', 'in', bizIds).orderBy('code').execute()).map((r) => String(r.id))
  }
  if (takeType !== TAKE_STOCK_PLAN_TYPE.SIMPLE && !productIds.length) throw invalid('没有查询到商品信息，无法生成盘点任务！')

  const id = newId()
  const code = await nextDocumentNumber(trx)
  await trx
    .insertInto(entity.table)
    .values({
      id,
      code,
      sc_id: scId,
      take_type: takeType,
      biz_id: bizIds.length ? bizIds.join(',') : null,
      take_status: PlanStatus.CREATED,
      description,
      ...auditColumns(ctx),
    })
    .execute()
  await addPlanProducts(trx, ctx, id, scId, productIds)
  await writeOpLog(trx, ctx, `新增盘点任务，单号：${code}`, OpLogType.OTHER, { id })
  return id
}

/** Only the warehouse and the remark of a plan can change. */
export async function modifyPlan(trx: Db, ctx: RequestContext, body: Wire): Promise<void> {
  const plan = await planHeader(trx, body.id)
  if (plan.takeStatus !== PlanStatus.CREATED) throw invalid('盘点任务的盘点状态已改变，不允许修改！')
  const scId = body.scId
  if (isBlank(scId) || typeof scId !== 'string') throw invalid('仓库不能为空', 'scId')
  if (!(await trx.selectFrom('base_data_store_center').select('id').where('id', '=', scId).executeTakeFirst())) throw invalid('仓库不存在', 'scId')
  const description = isBlank(body.description) ? '' : String(body.description)
  if (description.length > 200) throw invalid('备注最多允许200个字符', 'description')
  await trx
    .updateTable(PLAN)
    .set({ sc_id: scId, description, ...updateColumns(ctx) })
    .where('id', '=', String(plan.id))
    .execute()
  await writeOpLog(trx, ctx, `修改盘点任务，单号：${plan.code}`, OpLogType.OTHER, { id: plan.id })
}

/** 0 → 6: refused while a take sheet of the plan is not approved; lines nobody counted get 0. */
export async function createDiff(trx: Db, ctx: RequestContext, id: unknown): Promise<void> {
  const plan = await planHeader(trx, id)
  const pending = await trx
    .selectFrom('tbl_take_stock_sheet')
    .select('id')
    .where('plan_id', '=', String(plan.id))
    .where('status', '<>', TAKE_STOCK_SHEET_STATUS.APPROVE_PASS)
    .executeTakeFirst()
  if (pending) throw invalid('盘点任务存在未审核的库存盘点单，请优先处理库存盘点单！')
  const done = await trx
    .updateTable(PLAN)
    .set({ take_status: PlanStatus.DIFF_CREATED, ...updateColumns(ctx) })
    .where('id', '=', String(plan.id))
    .where('take_status', '=', PlanStatus.CREATED)
    .executeTakeFirst()
  if (!Number(done.numUpdatedRows)) throw invalid('盘点任务信息已过期，请刷新重试！')
  const lines = await trx.selectFrom(DETAIL).select('id').where('plan_id', '=', String(plan.id)).executeTakeFirst()
  if (!lines) throw invalid('盘点任务不存在商品信息，不允许执行差异生成操作！')
  await trx.updateTable(DETAIL).set({ ori_take_num: 0 }).where('plan_id', '=', String(plan.id)).where('ori_take_num', 'is', null).execute()
  await writeOpLog(trx, ctx, `差异生成，盘点任务单号：${plan.code}`, OpLogType.OTHER, { id: plan.id })
}

const flag = (v: unknown) => v === true || v === 'true' || v === 1 || v === '1'

/**
 * 6 → 9. The final count per line: the user's value when the config allows changing it; otherwise
 * the counted quantity corrected by the movements during counting (autoChangeStock) or as counted.
 * The difference to the snapshot goes in (biz 7, at the average, or the purchase price for a new row)
 * or out (biz 8, at the average). No stock-adjust sheets are created.
 */
export async function handleDiff(services: Services, trx: Db, ctx: RequestContext, body: Wire): Promise<void> {
  const plan = await planHeader(trx, body.id)
  const description = isBlank(body.description) ? '' : String(body.description).slice(0, 200)
  const done = await trx
    .updateTable(PLAN)
    .set({ take_status: PlanStatus.FINISHED, description, ...updateColumns(ctx) })
    .where('id', '=', String(plan.id))
    .where('take_status', '=', PlanStatus.DIFF_CREATED)
    .executeTakeFirst()
  if (!Number(done.numUpdatedRows)) throw invalid('盘点任务信息已过期，请刷新重试！')
  const config = await takeStockConfig(services, trx, ctx)
  const details = await trx
    .selectFrom(`${DETAIL} as d`)
    .innerJoin('base_data_product as p', 'p.id', 'd.product_id')
    .select(['d.id', 'd.product_id', 'd.stock_num', 'd.ori_take_num', 'd.total_in_num', 'd.total_out_num', 'p.code', 'p.name'])
    .where('d.plan_id', '=', String(plan.id))
    .orderBy('d.order_no')
    .execute()
  if (!details.length) throw invalid('盘点任务不存在商品信息，不允许执行差异处理操作！')
  if (Boolean(config.allowChangeNum) !== flag(body.allowChangeNum) || Boolean(config.autoChangeStock) !== flag(body.autoChangeStock))
    throw invalid('系统参数发生改变，请刷新页面后重试！')
  const given = new Map<string, Wire>()
  for (const p of Array.isArray(body.products) ? (body.products as Wire[]) : []) if (p && typeof p.productId === 'string') given.set(p.productId, p)

  const moves: { detailId: string; productId: string; diff: number }[] = []
  for (const d of details) {
    const item = given.get(String(d.product_id))
    let takeNum: number
    if (config.allowChangeNum) {
      takeNum = Number(item?.takeNum)
      if (isBlank(item?.takeNum) || !Number.isSafeInteger(takeNum) || takeNum < 0)
        throw invalid(`商品（${d.code}）${d.name}的盘点数量不能为空且必须为不小于0的整数！`)
    } else {
      const counted = Number(d.ori_take_num ?? 0)
      takeNum = config.autoChangeStock ? counted - Number(d.total_in_num) + Number(d.total_out_num) : counted
    }
    const lineDescription = isBlank(item?.description) ? '' : String(item?.description).slice(0, 200)
    await trx.updateTable(DETAIL).set({ take_num: takeNum, description: lineDescription }).where('id', '=', String(d.id)).execute()
    const diff = takeNum - Number(d.stock_num)
    if (diff) moves.push({ detailId: String(d.id), productId: String(d.product_id), diff })
  }
  moves.sort((a, b) => a.productId.localeCompare(b.productId))
  for (const m of moves) {
    const move = { productId: m.productId, scId: String(plan.scId), num: Math.abs(m.diff), bizId: String(plan.id), bizCode: String(plan.code), bizDetailId: m.detailId }
    if (m.diff > 0) await addStock(trx, ctx, { ...move, bizType: STOCK_BIZ_TYPE.TAKE_STOCK_IN })
    else await subStock(trx, ctx, { ...move, bizType: STOCK_BIZ_TYPE.TAKE_STOCK_OUT })
  }
  await writeOpLog(trx, ctx, `差异处理，盘点任务单号：${plan.code}`, OpLogType.OTHER, { id: plan.id })
}

export async function cancelPlan(trx: Db, ctx: RequestContext, id: unknown): Promise<void> {
  const plan = await planHeader(trx, id)
  if (![PlanStatus.CREATED, PlanStatus.DIFF_CREATED].includes(plan.takeStatus as 0)) throw invalid('盘点任务已完成或已作废，不允许作废！')
  const done = await trx
    .updateTable(PLAN)
    .set({ take_status: PlanStatus.CANCELED, ...updateColumns(ctx) })
    .where('id', '=', String(plan.id))
    .where('take_status', 'in', [PlanStatus.CREATED, PlanStatus.DIFF_CREATED])
    .executeTakeFirst()
  if (!Number(done.numUpdatedRows)) throw invalid('盘点任务信息已过期，请刷新重试！')
  await writeOpLog(trx, ctx, `作废盘点任务，单号：${plan.code}`, OpLogType.OTHER, { id: plan.id })
}

/** Only a canceled plan can be deleted; its take sheets (with lines and timelines) go with it. */
export async function deletePlan(trx: Db, ctx: RequestContext, id: unknown): Promise<void> {
  const plan = await planHeader(trx, id)
  if (plan.takeStatus !== PlanStatus.CANCELED) throw invalid('只有已作废的盘点任务才允许删除！')
  const planId = String(plan.id)
  const done = await trx.deleteFrom(PLAN).where('id', '=', planId).where('take_status', '=', PlanStatus.CANCELED).executeTakeFirst()
  if (!Number(done.numDeletedRows)) throw invalid('盘点任务信息已过期，请刷新重试！')
  await trx.deleteFrom(DETAIL).where('plan_id', '=', planId).execute()
  const sheets = (await trx.selectFrom('tbl_take_stock_sheet').select('id').where('plan_id', '=', planId).execute()).map((r) => String(r.id))
  if (sheets.length) {
    await trx.deleteFrom('tbl_take_stock_sheet_detail').where('sheet_id', 'in', sheets).execute()
    await trx.deleteFrom('tbl_order_time_line').where('order_id', 'in', sheets).execute()
    await trx.deleteFrom('tbl_take_stock_sheet').where('id', 'in', sheets).execute()
  }
  await writeOpLog(trx, ctx, `删除盘点任务，单号：${plan.code}`, OpLogType.OTHER, { id: planId })
}

/** The lines of a plan with their product data (detail, products and the diff screens). */
export async function planLines(db: Db, planId: string): Promise<Wire[]> {
  const rows = await db.selectFrom(DETAIL).selectAll().where('plan_id', '=', planId).orderBy('order_no').execute()
  return rows.map((r) => ({
    id: r.id,
    productId: r.product_id,
    stockNum: Number(r.stock_num),
    oriTakeNum: r.ori_take_num == null ? null : Number(r.ori_take_num),
    takeNum: r.take_num == null ? null : Number(r.take_num),
    totalInNum: Number(r.total_in_num),
    totalOutNum: Number(r.total_out_num),
    description: r.description ?? '',
    orderNo: Number(r.order_no),
  }))
}

/**
 * Movements while counting (§2.6.4): every goods in/out in a warehouse adds to the in/out totals of
 * the product's line in every plan of that warehouse still at 0. Nothing locks the warehouse. One
 * UPDATE per warehouse for all the moves of a posting (a document's lines).
 */
export const countMovement: StockMovedListener = async (trx, _ctx, moves) => {
  // One statement per warehouse setting both totals: the statements may run as sub-statements of one
  // (stock-ledger writeChanges), where two of them must never change the same row.
  const groups = new Map<string, Map<string, { in: number; out: number }>>()
  for (const e of moves) {
    const nums = groups.get(e.scId) ?? new Map<string, { in: number; out: number }>()
    const num = nums.get(e.productId) ?? { in: 0, out: 0 }
    num[e.direction] += e.num
    nums.set(e.productId, num)
    groups.set(e.scId, nums)
  }
  const statements: PostingWrite[] = []
  for (const [scId, nums] of groups) {
    // A values list: one statement text whatever the number of products (a prepared statement for all).
    const added = valuesList(trx, 'm', [['m_product_id', 'text'], ['m_in', 'bigint'], ['m_out', 'bigint']], [...nums].map(([productId, n]) => [productId, n.in, n.out]))
    statements.push(
      trx
        .updateTable(DETAIL)
        .from(added)
        .set({ total_in_num: sql<number>`${sql.ref('total_in_num')} + ${sql.ref('m_in')}`, total_out_num: sql<number>`${sql.ref('total_out_num')} + ${sql.ref('m_out')}` })
        .where(sql.ref('product_id'), '=', sql.ref('m_product_id'))
        .where('plan_id', 'in', trx.selectFrom(PLAN).select('id').where('sc_id', '=', scId).where('take_status', '=', PlanStatus.CREATED)),
    )
  }
  // Written with the posting, after its stock rows are locked (in its one statement on PostgreSQL).
  return statements
}
