import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { Services } from '../../engine/services.js'
import { defineRoute } from '../../platform/routes.js'
import { defineListRoute } from '../../engine/list-routes.js'
import { invalid } from '../../platform/errors.js'
import { pageArgs } from '../../platform/page-args.js'
import type { RequestContext } from '../../platform/request-context.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { documentInvoiceHooks, paymentInvoiceHooks } from '../../domain/settle/invoices.js'
import { fixed } from '../../domain/settle/money.js'
import { allOrNothing, entityList, manyBodies } from './settle-calls.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const DATE = /^\d{4}-\d{2}-\d{2}$/

/**
 * 发票查询 (GET /settle/invoice/query): every invoice, 收付款发票 and 开票 alike, newest first, paged as
 * {datas, totalCount}. Filters (all optional): supplierId, customerId, direction, invoiceType, invoiceNo
 * (part of the number, digits), invoiceDateStart / invoiceDateEnd (yyyy-MM-dd), source (1 收付款发票,
 * 2 开票). Values are bound parameters; nothing of the request reaches SQL as text.
 */
async function queryInvoices(services: Services, ctx: RequestContext, query: Record<string, unknown>) {
  const { pageIndex, pageSize } = pageArgs(query)
  const text = (name: string) => (isBlank(query[name]) ? undefined : String(query[name]).trim())
  const int = (name: string) => {
    const v = text(name)
    if (v === undefined) return undefined
    if (!/^\d{1,9}$/.test(v)) throw invalid('查询条件格式不正确', name)
    return Number(v)
  }
  const no = text('invoiceNo')
  if (no !== undefined && !/^\d{1,20}$/.test(no)) throw invalid('发票号码只能是数字', 'invoiceNo')
  const start = text('invoiceDateStart')
  const end = text('invoiceDateEnd')
  for (const [name, v] of [['invoiceDateStart', start], ['invoiceDateEnd', end]] as const)
    if (v !== undefined && !DATE.test(v.slice(0, 10))) throw invalid('开票日期格式不正确', name)
  const supplierId = text('supplierId')
  const customerId = text('customerId')
  const direction = int('direction')
  const invoiceType = int('invoiceType')
  const source = int('source')

  const supplierTable = services.registry.get('supplier').table
  const customerTable = services.registry.get('customer').table
  const db = ctx.db
  const side = (table: string, src: number) => {
    let q =
      src === 1
        ? db
            .selectFrom(`${table} as t`)
            .leftJoin('settle_payment as p', 'p.id', 't.payment_id')
            .select([sql<number>`1`.as('source'), sql<number>`0`.as('biz_type'), 'p.code as biz_code'])
        : db.selectFrom(`${table} as t`).select([sql<number>`2`.as('source'), 't.biz_type', 't.biz_code'])
    q = q
      .leftJoin(`${supplierTable} as s`, 's.id', 't.supplier_id')
      .leftJoin(`${customerTable} as c`, 'c.id', 't.customer_id')
      .select([
        't.id',
        't.direction',
        't.supplier_id',
        's.name as supplier_name',
        't.customer_id',
        'c.name as customer_name',
        't.invoice_type',
        't.invoice_no',
        't.invoice_date',
        't.amount',
        't.tax_rate',
        't.tax_amount',
        't.description',
        't.create_time',
      ])
    if (supplierId) q = q.where('t.supplier_id', '=', supplierId)
    if (customerId) q = q.where('t.customer_id', '=', customerId)
    if (direction !== undefined) q = q.where('t.direction', '=', direction)
    if (invoiceType !== undefined) q = q.where('t.invoice_type', '=', invoiceType)
    if (no) q = q.where('t.invoice_no', 'like', `%${no}%`)
    if (start) q = q.where('t.invoice_date', '>=', start.slice(0, 10))
    if (end) q = q.where('t.invoice_date', '<=', end.slice(0, 10))
    return q
  }
  const parts = [source !== 2 && side('settle_payment_invoice', 1), source !== 1 && side('settle_invoice', 2)].filter((q) => q !== false)
  if (!parts.length) return { pageIndex, pageSize, totalCount: 0, datas: [] }
  const union = parts.length === 2 ? parts[0].unionAll(parts[1]) : parts[0]
  const all = db.selectFrom(union.as('u'))
  const totalCount = Number((await all.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0)
  const rows = await all
    .selectAll('u')
    .orderBy('u.invoice_date', 'desc')
    .orderBy('u.create_time', 'desc')
    .orderBy('u.id', 'desc')
    .limit(pageSize)
    .offset((pageIndex - 1) * pageSize)
    .execute()
  const enums = services.registry.enums
  const datas = rows.map((r) => ({
    id: r.id,
    source: Number(r.source),
    sourceName: Number(r.source) === 1 ? '收付款发票' : '开票',
    bizType: Number(r.biz_type) || null,
    bizCode: r.biz_code ?? null,
    direction: Number(r.direction),
    directionName: enums.label('SETTLE_FEE_SHEET_TYPE', Number(r.direction)) ?? '',
    supplierId: r.supplier_id ?? null,
    supplierName: r.supplier_name ?? null,
    customerId: r.customer_id ?? null,
    customerName: r.customer_name ?? null,
    invoiceType: Number(r.invoice_type),
    invoiceTypeName: enums.label('INVOICE_TYPE', Number(r.invoice_type)) ?? '',
    invoiceNo: r.invoice_no,
    invoiceDate: String(r.invoice_date ?? '').slice(0, 10),
    amount: fixed(String(r.amount ?? 0)),
    taxRate: Number(r.tax_rate),
    taxAmount: fixed(String(r.tax_amount ?? 0)),
    description: r.description ?? null,
    createTime: r.create_time,
  }))
  return { pageIndex, pageSize, totalCount, datas }
}

/**
 * Invoices (spec 001 §7): 收付款发票 (/settle/paymentsInvoice/*), 开票管理 (its generic family at
 * /settle/invoice/export, the page /invoice/export/add) and 发票查询 (/settle/invoice/query).
 */
export function settleInvoicesModule(app: FastifyInstance, services: Services): void {
  const { registry, store, hooks } = services
  const paymentInvoice = registry.get('settlePaymentInvoice')
  const documentInvoice = registry.get('settleInvoice')
  hooks.on(paymentInvoice.name, paymentInvoiceHooks(services))
  hooks.on(documentInvoice.name, documentInvoiceHooks(services))

  defineListRoute(app, services, {
    method: 'GET',
    url: '/settle/invoice/query',
    conditions: [
      { name: 'invoiceDateStart', label: '开票日期', kind: 'datetime' },
      { name: 'invoiceDateEnd', label: '开票日期', kind: 'datetime' },
      { name: 'supplierId', label: '供应商', kind: 'id' },
      { name: 'customerId', label: '客户', kind: 'id' },
      { name: 'direction', label: '方向', kind: 'enum', enum: 'SETTLE_FEE_SHEET_TYPE' },
      { name: 'invoiceType', label: '发票类型', kind: 'enum', enum: 'INVOICE_TYPE' },
      { name: 'source', label: '来源', kind: 'integer' },
    ],
    access: [PERMISSION.settle.invoice.query],
    handler: async ({ ctx, query }) => queryInvoices(services, ctx, query),
  })

  // The invoices of one payment (?paymentId), unpaged: the payment's detail shows them all.
  defineListRoute(app, services, {
    method: 'GET',
    url: '/settle/paymentsInvoice/showList',
    conditions: [{ name: 'paymentId', label: '收付款', kind: 'id' }],
    access: [PERMISSION.settle.paymentsInvoice.query, PERMISSION.settle.payments.query],
    handler: async ({ ctx, query }) => {
      if (isBlank(query.paymentId) || typeof query.paymentId !== 'string') throw invalid('请选择收付款', 'paymentId')
      return (await entityList(services, ctx, paymentInvoice, { paymentId: query.paymentId }, [], false)).datas
    },
  })
  defineRoute(app, {
    method: 'POST',
    url: '/settle/paymentsInvoice/createMore',
    access: [PERMISSION.settle.paymentsInvoice.add],
    handler: async ({ ctx, body }) =>
      allOrNothing(ctx, manyBodies(body, '发票'), (trx, record) => store.create(trx, ctx, paymentInvoice, record)),
  })
}
