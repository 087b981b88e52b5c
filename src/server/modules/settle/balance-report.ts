import Decimal from 'decimal.js'
import type { FastifyInstance } from 'fastify'
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { Db, DbKind } from '../../db/dialect.js'
import type { QueryParam } from '../../../shared/generated/entity.js'
import { buildConditions, treeDescendants } from '../../engine/list-conditions.js'
import { defineListRoute, paramsOf } from '../../engine/list-routes.js'
import { invalid, notFound } from '../../platform/errors.js'
import { pageArgs } from '../../platform/page-args.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../../engine/services.js'
import { EXPORT_LIMIT, exportValues, sendWorkbook, type SheetColumn } from '../stock/xlsx-export.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/**
 * 往来余额 (AP/AR balances): the read side of the settlement ledger (`settle_ledger`, written only by
 * src/server/domain/settle/ledger.ts; schemas/entities/settle-ledger.json gives the posting rules).
 * A party's balance is Σ amount of its rows (> 0: we owe the supplier / the customer owes us); what is
 * still open on a document is Σ amount of the rows against it.
 *
 *   GET  /settle/report/supplier                 parties with balance and open documents (paged)
 *   GET  /settle/report/supplier/documents       the documents behind one supplier's balance (paged)
 *   POST /settle/report/supplier/export          xlsx of the first (same filters, unpaged)
 *   POST /settle/report/supplier/documents/export
 *   and the same under /customer/settle/report (customerId).
 *
 * Filters of the party list: `code`, `name` (contains, through the engine's whitelisted conditions),
 * `onlyNonZero` (balance ≠ 0). Of the documents: `onlyOpen` (outstanding ≠ 0). Parties come from the
 * supplier/customer entity through `EntityStore.rows`, so a data permission declared on it narrows the
 * report as it narrows the list; a party outside it answers like a missing one. The documents behind a
 * balance are not narrowed by each document kind's own data permission: they are what the balance is
 * made of, and a drill-down that hid some would no longer add up to it.
 *
 * Paging is SQL: the page of parties is chosen first (parties having ledger rows, ordered by code, the
 * total counted by a window on the same statement), then one GROUP BY over the page's parties reads
 * their rows through the index on party_id; `onlyNonZero` needs every party's sum and adds a grouped
 * HAVING sub-select (a full pass over the party's side of the ledger: see test/bench/settle-ledger.bench.ts). Sums are exact: NUMERIC on PostgreSQL;
 * on SQLite decimals are text, summed as integer cents (never REAL), see `units`.
 */

interface Side {
  partyType: 1 | 2
  entityName: 'supplier' | 'customer'
  base: string
  idParam: 'supplierId' | 'customerId'
  query: string
  export: string
  title: string
  balanceLabel: string
}

const SIDES: Side[] = [
  {
    partyType: 1,
    entityName: 'supplier',
    base: '/settle/report/supplier',
    idParam: 'supplierId',
    query: PERMISSION.settle.balance.query,
    export: PERMISSION.settle.balance.export,
    title: '供应商往来余额',
    balanceLabel: '应付余额',
  },
  {
    partyType: 2,
    entityName: 'customer',
    base: '/customer/settle/report',
    idParam: 'customerId',
    query: PERMISSION.customerSettle.balance.query,
    export: PERMISSION.customerSettle.balance.export,
    title: '客户往来余额',
    balanceLabel: '应收余额',
  },
]

const PARTY_FILTERS: QueryParam[] = [
  { field: 'code', op: 'contains' },
  { field: 'name', op: 'contains' },
]

/**
 * The amount of a ledger row in the unit its sums are exact in. PostgreSQL: the NUMERIC itself. SQLite:
 * whole cents as an INTEGER, read from the decimal text without passing through REAL: the stored form
 * `-123.45` (what the codec writes, toFixed(2)) by dropping the point; any other form (`5`, `0.1`, `.5`)
 * by splitting at the point. An integer sum past 2^63 cents is an SQLite error, never a wrong figure.
 */
export function units(kind: DbKind, column: string): RawBuilder<unknown> {
  const a = sql.ref(column)
  if (kind === 'postgres') return sql`${a}`
  const b = sql`ltrim(trim(${a}), '+-')`
  const p = sql`instr(${b}, '.')`
  return sql`(case when ${a} glob '*.[0-9][0-9]' then cast(replace(${a}, '.', '') as integer) else (case when ltrim(trim(${a})) like '-%' then -1 else 1 end) * (case when ${p} = 0 then cast(${b} as integer) * 100 else cast(substr(${b}, 1, ${p} - 1) as integer) * 100 + cast(substr(substr(${b}, ${p} + 1) || '00', 1, 2) as integer) end) end)`
}

/** `sum(units)` as text (SQLite: cast, so sums past 2^53 cents reach JS intact). */
export function unitsSum(kind: DbKind, inner: RawBuilder<unknown>): RawBuilder<string> {
  return kind === 'postgres' ? sql<string>`sum(${inner})` : sql<string>`cast(sum(${inner}) as text)`
}

/** A sum of `units` as money text with 2 places. */
export function money(kind: DbKind, value: unknown): string {
  const d = new Decimal(String(value ?? 0) || 0)
  return (kind === 'postgres' ? d : d.dividedBy(100)).toFixed(2)
}

const flag = (v: unknown) => v === true || v === 'true' || v === '1' || v === 1

export interface BalanceRow {
  partyId: string
  partyCode: string
  partyName: string
  balance: string
  documents: number
}

export interface DocumentRow {
  againstType: number
  againstTypeName: string | null
  againstId: string
  againstCode: string
  totalAmount: string
  outstanding: string
  firstTime: string | null
}

export function balanceReportRoutes(app: FastifyInstance, services: Services): void {
  const { registry, store, codec, databases } = services
  const kind = databases.kind
  const ledger = () => registry.get('settleLedger').table

  async function parties(db: Db, ctx: RequestContext, side: Side, values: Record<string, unknown>, paged: boolean) {
    const entity = registry.get(side.entityName)
    const l = ledger()
    const conditions = await buildConditions({
      entity,
      kind,
      codec,
      alias: 't',
      params: PARTY_FILTERS,
      values,
      descendants: (name, id) => treeDescendants(db, registry.get(name), id),
    })
    let base = (await store.rows(db, ctx, entity)).where((eb) =>
      eb.exists(db.selectFrom(`${l} as l`).select(sql`1`.as('one')).whereRef('l.party_id', '=', 't.id').where('l.party_type', '=', side.partyType)),
    )
    if (conditions.length) base = base.where((eb) => eb.and(conditions.map((c) => c(eb))))
    if (flag(values.onlyNonZero)) {
      const open = db
        .selectFrom(`${l} as n`)
        .select('n.party_id')
        .where('n.party_type', '=', side.partyType)
        .groupBy('n.party_id')
        .having(sql<SqlBool>`sum(${units(kind, 'n.amount')}) <> 0`)
      base = base.where('t.id', 'in', open)
    }
    const { pageIndex, pageSize } = paged ? pageArgs(values) : { pageIndex: 1, pageSize: EXPORT_LIMIT }
    // The count rides on the page (a window over the filtered parties), so `onlyNonZero`'s grouped
    // sub-select runs once per request; only a page past the end asks for the count on its own.
    const page = await base
      .select(['t.id', 't.code', 't.name', sql<number>`count(*) over ()`.as('total_count')])
      .orderBy('t.code')
      .orderBy('t.id')
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize)
      .execute()
    const totalCount = !paged
      ? 0
      : page.length
        ? Number(page[0].total_count)
        : pageIndex > 1
          ? Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0)
          : 0
    const sums = new Map<string, { balance: unknown; documents: unknown }>()
    const ids = page.map((p) => String(p.id))
    if (ids.length) {
      const perDocument = db
        .selectFrom(`${l} as l`)
        .select(['l.party_id', sql`sum(${units(kind, 'l.amount')})`.as('outstanding')])
        .where('l.party_type', '=', side.partyType)
        .where('l.party_id', 'in', ids)
        .groupBy(['l.party_id', 'l.against_type', 'l.against_id'])
      const found = await db
        .selectFrom(perDocument.as('d'))
        .select([
          'd.party_id',
          unitsSum(kind, sql.ref('d.outstanding')).as('balance'),
          sql<number>`sum(case when d.outstanding <> 0 then 1 else 0 end)`.as('documents'),
        ])
        .groupBy('d.party_id')
        .execute()
      for (const r of found) sums.set(String(r.party_id), { balance: r.balance, documents: r.documents })
    }
    const datas: BalanceRow[] = page.map((p) => {
      const s = sums.get(String(p.id))
      return {
        partyId: String(p.id),
        partyCode: String(p.code ?? ''),
        partyName: String(p.name ?? ''),
        balance: money(kind, s?.balance),
        documents: Number(s?.documents ?? 0),
      }
    })
    return { pageIndex, pageSize, totalCount: paged ? totalCount : datas.length, datas }
  }

  async function documents(db: Db, ctx: RequestContext, side: Side, values: Record<string, unknown>, paged: boolean) {
    const entity = registry.get(side.entityName)
    const raw = values[side.idParam]
    const partyId = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : ''
    if (!partyId) throw invalid(`${entity.label}不能为空！`, side.idParam)
    const visible = await (await store.rows(db, ctx, entity)).select('t.id').where('t.id', '=', partyId).executeTakeFirst()
    if (!visible) throw notFound(`${entity.label}不存在！`)
    const u = units(kind, 'l.amount')
    let grouped = db
      .selectFrom(`${ledger()} as l`)
      .where('l.party_type', '=', side.partyType)
      .where('l.party_id', '=', partyId)
      .groupBy(['l.against_type', 'l.against_id'])
    if (flag(values.onlyOpen)) grouped = grouped.having(sql<SqlBool>`sum(${u}) <> 0`)
    const { pageIndex, pageSize } = paged ? pageArgs(values) : { pageIndex: 1, pageSize: EXPORT_LIMIT }
    const totalCount = paged
      ? Number(
          (await db.selectFrom(grouped.select('l.against_id').as('g')).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0,
        )
      : 0
    const own: Expression<SqlBool> = sql<SqlBool>`l.voucher_type = l.against_type and l.voucher_id = l.against_id`
    const rows = await grouped
      .select([
        'l.against_type',
        'l.against_id',
        sql<string>`max(l.against_code)`.as('against_code'),
        unitsSum(kind, u).as('outstanding'),
        unitsSum(kind, sql`case when ${own} then ${u} else 0 end`).as('total'),
        sql<string>`min(l.create_time)`.as('first_time'),
      ])
      .orderBy(sql`min(l.create_time)`)
      .orderBy('l.against_id')
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize)
      .execute()
    const datas: DocumentRow[] = rows.map((r) => ({
      againstType: Number(r.against_type),
      againstTypeName: registry.enums.label('SETTLE_VOUCHER_TYPE', Number(r.against_type)) ?? null,
      againstId: String(r.against_id),
      againstCode: String(r.against_code ?? ''),
      totalAmount: money(kind, r.total),
      outstanding: money(kind, r.outstanding),
      firstTime: r.first_time == null ? null : String(r.first_time),
    }))
    return { pageIndex, pageSize, totalCount: paged ? totalCount : datas.length, datas }
  }

  for (const side of SIDES) {
    const partyLabel = side.entityName === 'supplier' ? '供应商' : '客户'
    const partyColumns: SheetColumn[] = [
      { header: `${partyLabel}编号`, key: 'partyCode' },
      { header: `${partyLabel}名称`, key: 'partyName' },
      { header: side.balanceLabel, key: 'balance' },
      { header: '未结清单据数', key: 'documents' },
    ]
    const documentColumns: SheetColumn[] = [
      { header: '单据类型', key: 'againstTypeName' },
      { header: '单据号', key: 'againstCode' },
      { header: '单据金额', key: 'totalAmount' },
      { header: '未结金额', key: 'outstanding' },
      { header: '记账时间', key: 'firstTime' },
    ]
    const partyConditions = [...paramsOf(services, registry.get(side.entityName), PARTY_FILTERS), { name: 'onlyNonZero', label: '只看有余额', kind: 'boolean' as const }]
    const documentConditions = [
      { name: side.idParam, label: registry.get(side.entityName).label, kind: 'id' as const },
      { name: 'onlyOpen', label: '只看未结清', kind: 'boolean' as const },
    ]
    defineListRoute(app, services, {
      method: 'GET',
      url: side.base,
      conditions: partyConditions,
      access: [side.query],
      handler: async ({ ctx, query }) => parties(ctx.db, ctx, side, query, true),
    })
    defineListRoute(app, services, {
      method: 'GET',
      url: `${side.base}/documents`,
      conditions: documentConditions,
      access: [side.query],
      handler: async ({ ctx, query }) => documents(ctx.db, ctx, side, query, true),
    })
    for (const method of ['GET', 'POST'] as const) {
      defineListRoute(app, services, {
        method,
        url: `${side.base}/export`,
        conditions: partyConditions,
        access: [side.export],
        handler: async ({ ctx, query, body, reply }) => {
          const page = await parties(ctx.db, ctx, side, exportValues(query, body), false)
          return sendWorkbook(reply, side.title, partyColumns, page.datas as unknown as Record<string, unknown>[])
        },
      })
      defineListRoute(app, services, {
        method,
        url: `${side.base}/documents/export`,
        conditions: documentConditions,
        access: [side.export],
        handler: async ({ ctx, query, body, reply }) => {
          const page = await documents(ctx.db, ctx, side, exportValues(query, body), false)
          return sendWorkbook(reply, `${side.title}明细`, documentColumns, page.datas as unknown as Record<string, unknown>[])
        },
      })
    }
  }
}
