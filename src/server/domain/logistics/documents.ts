import Decimal from 'decimal.js'
import { sql, type SqlBool } from 'kysely'
import type { Db } from '../../db/dialect.js'
import type { EntityStore } from '../../engine/entity-store.js'
import { readSingleton } from '../../engine/singletons.js'
import { likeEscape } from '../../engine/list-conditions.js'
import { DocumentStatus } from '../../../shared/metadata/document-model.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { LOGISTICS_SHEET_DETAIL_BIZ_TYPE, PRODUCT_TYPE } from '../../../shared/generated/enum-codes.js'
import { isCalendarText, unreadableCondition, type ConditionField } from '../../engine/condition-values.js'
import { invalid } from '../../platform/errors.js'
import { pageArgs, pageOf } from '../../platform/page-args.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../../engine/services.js'

/** A kind of document a logistics sheet ships (LOGISTICS_SHEET_DETAIL_BIZ_TYPE). */
export interface ShippedKind {
  bizType: number
  /** Document entity (its data permission narrows what a caller may attach). */
  doc: string
  subject: string
  table: string
  detail: string
  bundle: string
  /** The party the goods go to: customer (sale) or member (retail). */
  partyColumn: string
  partyTable: string
  /** Configuration singleton and its flag: approval waits for delivery. */
  config: { entity: string; flag: string }
}

export const SHIPPED_KINDS: readonly ShippedKind[] = [
  {
    bizType: LOGISTICS_SHEET_DETAIL_BIZ_TYPE.SALE_OUT_SHEET,
    doc: 'saleOutSheet',
    subject: '销售出库单',
    table: 'tbl_sale_out_sheet',
    detail: 'tbl_sale_out_sheet_detail',
    bundle: 'tbl_sale_out_sheet_detail_bundle',
    partyColumn: 'customer_id',
    partyTable: 'base_data_customer',
    config: { entity: 'saleConfig', flag: 'outStockRequireLogistics' },
  },
  {
    bizType: LOGISTICS_SHEET_DETAIL_BIZ_TYPE.RETAIL_OUT_SHEET,
    doc: 'retailOutSheet',
    subject: '零售出库单',
    table: 'tbl_retail_out_sheet',
    detail: 'tbl_retail_out_sheet_detail',
    bundle: 'tbl_retail_out_sheet_detail_bundle',
    partyColumn: 'member_id',
    partyTable: 'base_data_member',
    config: { entity: 'retailConfig', flag: 'retailOutSheetRequireLogistics' },
  },
]

export const kindOf = (bizType: number): ShippedKind | undefined => SHIPPED_KINDS.find((k) => k.bizType === bizType)

export const LOGISTICS_DETAIL_TABLE = 'tbl_logistics_sheet_detail'
export const LOGISTICS_TABLE = 'tbl_logistics_sheet'

/**
 * Statuses of a kind's documents that may ship: approved ones, and pending or refused ones too when
 * the kind's configuration requires logistics (their approval waits for delivery).
 */
export async function shippableStatuses(services: Services, db: Db, ctx: RequestContext, kind: ShippedKind): Promise<number[]> {
  const cfg = await readSingleton(services, db, ctx, services.registry.get(kind.config.entity))
  return cfg[kind.config.flag] === true
    ? [DocumentStatus.CREATED, DocumentStatus.APPROVE_PASS, DocumentStatus.APPROVE_REFUSE]
    : [DocumentStatus.APPROVE_PASS]
}

/** A document a logistics line refers to. */
export interface ShippedDocument {
  id: string
  code: string
  status: number
  kind: ShippedKind
}

/**
 * The documents of `ids` among both kinds (ids are unique across tables); with a viewer, only those
 * within the viewer's data permission of that kind (one outside it is as missing).
 */
export async function findShipped(db: Db, ids: string[], viewer?: { store: EntityStore; ctx: RequestContext }): Promise<Map<string, ShippedDocument>> {
  const found = new Map<string, ShippedDocument>()
  const wanted = [...new Set(ids)]
  if (!wanted.length) return found
  for (const kind of SHIPPED_KINDS) {
    let q = db.selectFrom(kind.table).select(['id', 'code', 'status']).where('id', 'in', wanted)
    if (viewer) q = q.where(await viewer.store.scope(db, viewer.ctx, viewer.store.registry.get(kind.doc)))
    for (const r of await q.execute()) found.set(String(r.id), { id: String(r.id), code: String(r.code), status: Number(r.status), kind })
  }
  return found
}

/** What a line shows of its document: number, status, warehouse, customer/member, quantity, amount. */
export async function describeShipped(db: Db, ids: string[]): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>()
  const wanted = [...new Set(ids)]
  if (!wanted.length) return out
  for (const kind of SHIPPED_KINDS) {
    const rows = await db
      .selectFrom(`${kind.table} as s`)
      .leftJoin('base_data_store_center as c', 'c.id', 's.sc_id')
      .leftJoin(`${kind.partyTable} as p`, 'p.id', `s.${kind.partyColumn}`)
      .select(['s.id', 's.code', 's.status', 's.total_num', 's.total_amount', 's.create_time', 'c.name as sc_name', 'p.name as receiver_name'])
      .where('s.id', 'in', wanted)
      .execute()
    for (const r of rows) out.set(String(r.id), candidateRow(kind, r))
  }
  return out
}

const text = (v: unknown) => (v === null || v === undefined ? null : String(v))

function candidateRow(kind: ShippedKind, r: Record<string, unknown>) {
  return {
    bizId: String(r.id ?? r.biz_id),
    bizType: kind.bizType,
    bizCode: String(r.code ?? r.biz_code),
    bizStatus: Number(r.status ?? r.biz_status),
    scName: text(r.sc_name),
    receiverName: text(r.receiver_name),
    totalNum: Number(r.total_num ?? 0),
    totalAmount: new Decimal(String(r.total_amount ?? 0)).toFixed(2),
    createTime: text(r.create_time),
  }
}

/** What `GET /logistics/sheet/biz` reads besides its code text. */
export const SHIPPABLE_CONDITIONS: readonly ConditionField[] = [
  { name: 'bizType', label: '业务类型', kind: 'integer' },
  { name: 'createStartTime', label: '创建起始时间', kind: 'datetime' },
  { name: 'createEndTime', label: '创建截止时间', kind: 'datetime' },
]

const dayStart = (value: unknown, label: string, field: string) => {
  if (isBlank(value)) return undefined
  const t = String(value).trim()
  if (!isCalendarText(t)) throw unreadableCondition(label, field)
  return t
}

/**
 * `GET /logistics/sheet/biz`: the documents that may still be attached — of the kind asked (`bizType`,
 * both when absent), shippable in their status (see shippableStatuses), on no logistics sheet, within
 * the caller's data permission of that kind — filtered by `code` (contains) and creation time, paged
 * in SQL, oldest first (they have waited longest).
 */
export async function shippableDocuments(services: Services, db: Db, ctx: RequestContext, query: Record<string, unknown>) {
  const asked = isBlank(query.bizType) ? undefined : Number(query.bizType)
  if (asked !== undefined && !kindOf(asked)) throw invalid('业务类型不存在', 'bizType')
  const code = isBlank(query.code) ? undefined : String(query.code).trim()
  const from = dayStart(query.createStartTime, '创建起始时间', 'createStartTime')
  const to = dayStart(query.createEndTime, '创建截止时间', 'createEndTime')
  const parts = []
  for (const kind of SHIPPED_KINDS.filter((k) => asked === undefined || k.bizType === asked)) {
    const scope = await services.store.scope(db, ctx, services.registry.get(kind.doc))
    let inner = db
      .selectFrom(kind.table)
      .select(['id', 'code', 'status', 'sc_id', `${kind.partyColumn} as party_id`, 'total_num', 'total_amount', 'create_time'])
      .where('status', 'in', await shippableStatuses(services, db, ctx, kind))
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom(`${LOGISTICS_DETAIL_TABLE} as d`).select('d.id').whereRef('d.biz_id', '=', `${kind.table}.id`))))
      .where(scope)
    if (code) inner = inner.where(sql<SqlBool>`${sql.ref('code')} like ${`%${likeEscape(code)}%`} escape '\\'`)
    if (from) inner = inner.where('create_time', '>=', from.length === 10 ? `${from} 00:00:00` : from)
    if (to) inner = inner.where('create_time', '<=', to.length === 10 ? `${to} 23:59:59` : to)
    parts.push(
      db
        .selectFrom(inner.as('s'))
        .leftJoin('base_data_store_center as c', 'c.id', 's.sc_id')
        .leftJoin(`${kind.partyTable} as p`, 'p.id', 's.party_id')
        .select([
          's.id as biz_id',
          sql<number>`${sql.lit(kind.bizType)}`.as('biz_type'),
          's.code as biz_code',
          's.status as biz_status',
          'c.name as sc_name',
          'p.name as receiver_name',
          's.total_num',
          's.total_amount',
          's.create_time',
        ]),
    )
  }
  const { pageIndex, pageSize } = pageArgs(query)
  const union = parts.reduce((all, q) => all.unionAll(q))
  const { totalCount, rows } = await pageOf(db.selectFrom(union.as('u')), (q) => q.selectAll().orderBy('create_time').orderBy('biz_id'), pageIndex, pageSize)
  return {
    pageIndex,
    pageSize,
    totalCount,
    datas: rows.map((r) => candidateRow(kindOf(Number(r.biz_type)) as ShippedKind, r)),
  }
}

type Measure = 'weight' | 'volume'
const MEASURE_LABEL: Record<Measure, string> = { weight: '重量', volume: '体积' }

/**
 * Σ quantity × the product's weight (kg) or volume (cm3) over the lines of the documents `ids`, exactly
 * (decimal.js): a bundle line counts its components (the breakdown kept on save) and a component line
 * of an approved document counts itself. A product without the measure refuses the sum
 * (商品（code）name尚未设置重量，请检查！), as in the ancestor. Documents outside the caller's data
 * permission are as missing.
 */
export async function measureShipped(store: EntityStore, db: Db, ctx: RequestContext, ids: string[], measure: Measure): Promise<string> {
  const docs = await findShipped(db, ids, { store, ctx })
  for (const id of new Set(ids)) if (!docs.has(id)) throw invalid('业务单据不存在！', 'bizIds')
  let total = new Decimal(0)
  for (const kind of SHIPPED_KINDS) {
    const mine = [...docs.values()].filter((d) => d.kind === kind).map((d) => d.id)
    if (!mine.length) continue
    const lines = await db
      .selectFrom(`${kind.detail} as l`)
      .innerJoin('base_data_product as p', 'p.id', 'l.product_id')
      .select(['l.id', 'l.order_num', 'p.code', 'p.name', 'p.product_type', `p.${measure} as measure`])
      .where('l.sheet_id', 'in', mine)
      .execute()
    const bundleLines = lines.filter((l) => Number(l.product_type) === PRODUCT_TYPE.BUNDLE).map((l) => String(l.id))
    const parts = bundleLines.length
      ? await db
          .selectFrom(`${kind.bundle} as b`)
          .innerJoin('base_data_product as p', 'p.id', 'b.product_id')
          .select(['b.detail_id', 'b.product_order_num', 'p.code', 'p.name', `p.${measure} as measure`])
          .where('b.detail_id', 'in', bundleLines)
          .execute()
      : []
    const add = (num: unknown, row: { code: unknown; name: unknown; measure: unknown }) => {
      if (isBlank(row.measure)) throw invalid(`商品（${String(row.code)}）${String(row.name)}尚未设置${MEASURE_LABEL[measure]}，请检查！`)
      total = total.plus(new Decimal(String(row.measure)).times(String(num ?? 0)))
    }
    for (const line of lines) {
      if (Number(line.product_type) !== PRODUCT_TYPE.BUNDLE) add(line.order_num, line)
      else for (const part of parts.filter((p) => String(p.detail_id) === String(line.id))) add(part.product_order_num, part)
    }
  }
  return total.toFixed(2)
}
