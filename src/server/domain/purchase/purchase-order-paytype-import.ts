import Decimal from 'decimal.js'
import type { Db } from '../../db/dialect.js'
import { checkField } from '../../../shared/metadata/validate-record.js'
import { invalid } from '../../platform/errors.js'
import { updateColumns } from '../../platform/audit-columns.js'
import { OpLogType, writeOpLog } from '../../platform/op-log.js'
import type { RequestContext } from '../../platform/request-context.js'
import { documentModel } from '../../engine/document-routes.js'
import { addTimeline, TimelineType } from '../../engine/document-timeline.js'
import type { ImportRow } from '../../engine/import/units.js'
import { rowError, RowProblems } from '../../engine/import/units.js'
import type { Wire } from '../../engine/record-codec.js'
import type { Services } from '../../engine/services.js'
import { PurchaseOrderStatus } from './purchase-order.js'
import { savePayTypes } from '../documents/agreed-payments.js'
import { importColumn } from './document-import.js'

/** Orders whose agreed payments may still change: as their modify (pending review, refused). */
const OPEN: number[] = [PurchaseOrderStatus.CREATED, PurchaseOrderStatus.APPROVE_REFUSE]

/**
 * Agreed payments (约定支付) of purchase orders from a spreadsheet (000 §5 Pay-type import): one row per
 * payment, `单据号` names the order. The rows of one order replace its agreed payments as a whole (a
 * group, all or nothing), with the screen's rule that they add up to the order's total exactly. Approved
 * orders (every status past review) are refused; identical payments stay separate rows, never merged; a
 * zero (or negative) amount is refused. An order outside the caller's data permission is "not found".
 */
export function purchaseOrderPayTypeImport(services: Services) {
  const { registry } = services
  const order = documentModel(services, registry.get('purchaseOrder'))
  const payType = registry.get('payType')
  const entity = registry.get('orderPayType')
  const amountField = entity.byName.get('payAmount')!
  const textField = entity.byName.get('text')!
  const statusEnum = order.section.statuses!

  const amountColumn = importColumn('payAmount', amountField.label, 'decimal', true, { ...amountField, minExclusive: 0 })
  const columns = [
    importColumn('code', '单据号', 'text', true, order.header.byName.get('code')),
    importColumn('payTypeCode', '支付方式编号', 'ref', true, undefined, payType),
    amountColumn,
    importColumn('text', textField.label, 'text', false, textField),
  ]
  const rules = [
    `按“单据号”分组：同一采购订单的所有行作为该订单的全部约定支付，替换其原有的约定支付；各行的支付金额之和必须等于订单的含税总金额。`,
    '只有“待审核”或“审核拒绝”的采购订单可以导入约定支付，已审核通过的订单不允许导入。',
    '相同的支付方式和金额填写多行时分别保存，不会合并；支付金额必须大于0。支付方式“记录内容”时必须填写支付内容，否则支付内容不保存。',
    '每个单据号作为一个整体导入：其中任何一行有误时该订单不做任何修改，其他订单照常导入；出错的行以“第N行”列出（N为Excel中的行号）。',
  ]

  const cell = (row: ImportRow, name: string) => (row.cells.get(name) ?? '').trim()
  const groupKey = (row: ImportRow) => cell(row, 'code')

  async function write(trx: Db, ctx: RequestContext, rows: ImportRow[]): Promise<'modify'> {
    const first = rows[0]
    const code = cell(first, 'code')
    if (!code) throw rowError(first.line, '单据号不能为空')
    // The caller's data permission narrows the lookup like the order list.
    const scope = await services.store.scope(trx, ctx, order.header)
    const found = await trx.selectFrom(order.header.table).select(['id', 'status', 'total_amount']).where('code', '=', code).where(scope).executeTakeFirst()
    if (!found) throw rowError(first.line, `单据号“${code}”不存在`)
    const status = Number(found.status)
    if (!OPEN.includes(status))
      throw rowError(first.line, `采购订单“${code}”的状态为“${registry.enums.label(statusEnum, status) ?? status}”，不允许导入约定支付`)

    const typeCodes = [...new Set(rows.map((r) => cell(r, 'payTypeCode')).filter(Boolean))]
    const types = typeCodes.length ? await trx.selectFrom(payType.table).select(['id', 'code', 'rec_text']).where('code', 'in', typeCodes).execute() : []
    const byCode = new Map(types.map((t) => [String(t.code), t]))
    let sum = new Decimal(0)
    // Every row is checked before the order is refused, so each row in error is listed with each of its reasons.
    const problems = new RowProblems()
    const items = problems.each(rows, (r) => r.line, (row, problem): Wire => {
      if (cell(row, 'code') !== code) problem('单据号与本组不一致')
      const typeCode = cell(row, 'payTypeCode')
      const type = typeCode ? byCode.get(typeCode) : undefined
      if (!typeCode) problem('支付方式编号不能为空')
      else if (!type) problem(`支付方式编号“${typeCode}”不存在`)
      const amount = cell(row, 'payAmount')
      // The column's rule (greater than 0), its sign told before its places.
      const amountProblem = amount ? checkField(amountColumn.field, amount, registry.enums, 'create') : `${amountField.label}不能为空`
      if (amountProblem) problem(amountProblem.replace(/！$/, ''))
      else sum = sum.plus(amount)
      const recorded = type?.rec_text === true || type?.rec_text === 1 || type?.rec_text === '1' || type?.rec_text === 'true'
      const text = cell(row, 'text')
      if (recorded && !text) problem(`${textField.label}不能为空`)
      const textProblem = recorded && text ? checkField(textField, text, registry.enums, 'create') : undefined
      if (textProblem) problem(textProblem)
      return { payTypeId: type ? String(type.id) : null, payAmount: amountProblem ? null : new Decimal(amount).toFixed(2), text: recorded ? text : null }
    })
    // After raise() every row was checked without a problem, so every item is there.
    problems.raise()
    const total = new Decimal(String(found.total_amount ?? 0))
    if (!sum.equals(total))
      throw rowError(first.line, `单据号“${code}”所有支付方式的支付金额之和（${sum.toFixed(2)}）不等于含税总金额（${total.toFixed(2)}），请检查！`)

    // Guarded like the order's modify: an approval between the read and this write is not overwritten.
    const done = await trx
      .updateTable(order.header.table)
      .set(updateColumns(ctx))
      .where('id', '=', String(found.id))
      .where('status', 'in', OPEN)
      .where(scope)
      .executeTakeFirst()
    if (!Number(done.numUpdatedRows)) throw invalid(`${order.subject}信息已过期，请刷新重试！`)
    await savePayTypes(trx, ctx, String(found.id), items as Wire[])
    await addTimeline(trx, ctx, String(found.id), TimelineType.UPDATE, '导入约定支付')
    await writeOpLog(trx, ctx, `导入约定支付，采购订单单号：${code}`, OpLogType.OTHER, { id: found.id })
    return 'modify'
  }

  return { columns, rules, groupKey, write }
}
