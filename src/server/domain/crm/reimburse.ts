import Decimal from 'decimal.js'
import { sql, type SqlBool } from 'kysely'
import type { Db } from '../../db/dialect.js'
import type { Services } from '../../engine/services.js'
import { CRM_REIMBURSE_STATUS } from '../../../shared/generated/enum-codes.js'
import { isBlank, validateRecord } from '../../../shared/metadata/validate-record.js'
import { forbidden, invalid, notFound } from '../../platform/errors.js'
import { now } from '../../platform/clock.js'
import { newId } from '../../platform/ids.js'
import type { RequestContext } from '../../platform/request-context.js'
import { pageArgs } from '../../platform/page-args.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import { nextDocumentNumber } from '../../engine/document-number.js'
import type { Wire } from '../../engine/record-codec.js'
import { managerOf, type Manager } from './dept-leaders.js'

/**
 * Expense claims (费用报销, issue 13): lines with a category (CRM_REIMBURSE_CATEGORY) and an exact
 * amount, the total derived here with decimal.js, the approver found in the department tree
 * (dept-leaders.ts), and a one-time approval by that approver only (CRM_REIMBURSE_STATUS).
 *
 * Rows a caller reaches: their own claims (list, detail, modify) and the claims they approve (approve
 * list, detail, approve); admins reach every claim for reading.
 */
const { CREATED, APPROVE_PASS, APPROVE_REFUSE } = CRM_REIMBURSE_STATUS
const MAX_LINES = 200

const claim = (services: Services) => services.registry.get('crmReimburse')
const lineEntity = (services: Services) => services.registry.get('crmReimburseDetail')

/** GET /crm/cost/getManagerId: the approver of the caller (or of `userId`). */
export async function approverOf(services: Services, db: Db, userId: string): Promise<Manager> {
  const manager = await managerOf(db, services.registry, userId)
  if (!manager) throw invalid('未找到审批人：请联系管理员为您所在的部门（或上级部门）设置负责人')
  return manager
}

interface Line {
  category: unknown
  amount: string
  occurDate: unknown
  description: unknown
}

/** Validated lines and their exact total. */
function linesOf(services: Services, body: Record<string, unknown>): { lines: Line[]; total: Decimal } {
  const raw = body.details ?? body.items
  if (!Array.isArray(raw) || !raw.length) throw invalid('报销明细不能为空', 'details')
  if (raw.length > MAX_LINES) throw invalid(`报销明细不能超过${MAX_LINES}行`, 'details')
  const entity = lineEntity(services)
  const lines: Line[] = []
  let total = new Decimal(0)
  raw.forEach((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw invalid(`第${i + 1}行报销明细格式错误`, 'details')
    const v = item as Record<string, unknown>
    const values = { reimburseId: 'new', category: v.category, amount: v.amount, occurDate: v.occurDate, description: v.description ?? null, orderNo: i }
    const errors = validateRecord(entity, values, services.registry.enums, 'create')
    if (errors.length) throw invalid(`第${i + 1}行：${errors[0].message}`, errors[0].field)
    const amount = new Decimal(String(v.amount))
    total = total.plus(amount)
    lines.push({ category: v.category, amount: amount.toFixed(2), occurDate: v.occurDate, description: v.description ?? null })
  })
  if (total.gt('9999999999')) throw invalid('报销总金额超出允许范围', 'details')
  return { lines, total }
}

async function writeLines(services: Services, trx: Db, ctx: RequestContext, claimId: string, lines: Line[]) {
  const entity = lineEntity(services)
  await trx.deleteFrom(entity.table).where('reimburse_id', '=', claimId).execute()
  const fields = entity.fields.filter((f) => !f.virtual)
  const time = now()
  await trx
    .insertInto(entity.table)
    .values(
      lines.map((l, i) => ({
        ...services.codec.toRow({ reimburseId: claimId, category: l.category, amount: l.amount, occurDate: l.occurDate, description: l.description, orderNo: i }, fields),
        id: newId(),
        create_by: ctx.name,
        create_by_id: ctx.userId,
        create_time: time,
        update_by: ctx.name,
        update_by_id: ctx.userId,
        update_time: time,
      })),
    )
    .execute()
}

/** The header values a client may write (title, note, attachments), checked by the entity's rules. */
function headerOf(body: Record<string, unknown>): Wire {
  const out: Wire = {}
  for (const name of ['title', 'description', 'attachments']) if (name in body) out[name] = body[name]
  if ('attachments' in out && !isBlank(out.attachments)) {
    const a = out.attachments
    // Only files stored by the upload call: no outside links in a claim.
    const stored = (url: unknown) => typeof url === 'string' && url.length <= 500 && /^\/cloud-api\/component\/upload\/image\/[A-Za-z0-9_]+\/[A-Za-z0-9_.-]+$/.test(url)
    const ok = Array.isArray(a) && a.length <= 20 && a.every((x) => x && typeof x === 'object' && stored((x as Record<string, unknown>).url))
    if (!ok) throw invalid('附件格式错误（最多20个，须为上传的图片）', 'attachments')
    out.attachments = (a as Record<string, unknown>[]).map((x) => ({ name: String(x.name ?? '').slice(0, 200), url: String(x.url) }))
  }
  return out
}

/** POST /crm/cost/add: a pending claim of the caller, with its approver and total. */
export async function addClaim(services: Services, trx: Db, ctx: RequestContext, body: Record<string, unknown>): Promise<string> {
  const entity = claim(services)
  const { lines, total } = linesOf(services, body)
  const manager = await approverOf(services, trx, ctx.userId)
  const id = await services.store.create(trx, ctx, entity, headerOf(body))
  await trx
    .updateTable(entity.table)
    .set({ code: `BX${await nextDocumentNumber(trx)}`, total_amount: total.toFixed(2), manager_id: manager.managerId, dept_id: manager.deptId, status: CREATED })
    .where('id', '=', id)
    .execute()
  await writeLines(services, trx, ctx, id, lines)
  return id
}

/**
 * PUT /crm/cost/update: the applicant changes a claim that is pending or was refused; the lines are
 * replaced, the total and approver computed again, and a refused claim is pending again.
 */
export async function updateClaim(services: Services, trx: Db, ctx: RequestContext, body: Record<string, unknown>): Promise<void> {
  const entity = claim(services)
  if (isBlank(body.id) || typeof body.id !== 'string') throw invalid('请选择报销单', 'id')
  const row = await trx.selectFrom(entity.table).select(['id', 'status', 'create_by_id']).where('id', '=', body.id).executeTakeFirst()
  if (!row || String(row.create_by_id) !== ctx.userId) throw notFound('报销单不存在！')
  const status = Number(row.status)
  if (status === APPROVE_PASS) throw invalid('报销单已审核通过，不允许修改')
  const { lines, total } = linesOf(services, body)
  const manager = await approverOf(services, trx, ctx.userId)
  await services.store.modify(trx, ctx, entity, { ...headerOf(body), id: body.id })
  // Guarded: the claim is still the applicant's and not approved in between.
  const done = await trx
    .updateTable(entity.table)
    .set({ total_amount: total.toFixed(2), manager_id: manager.managerId, dept_id: manager.deptId, status: CREATED, refuse_reason: null, approve_by: null, approve_time: null })
    .where('id', '=', body.id)
    .where('create_by_id', '=', ctx.userId)
    .where('status', 'in', [CREATED, APPROVE_REFUSE])
    .executeTakeFirst()
  if (!Number(done.numUpdatedRows)) throw invalid('报销单已审核通过，不允许修改')
  await writeLines(services, trx, ctx, body.id, lines)
}

/**
 * POST /crm/cost/approve `{id, status: 3|6 (or pass: true|false), refuseReason}`: only the claim's
 * approver, only while it is pending; one guarded statement, so two approvals cannot both succeed.
 */
export async function approveClaim(services: Services, trx: Db, ctx: RequestContext, body: Record<string, unknown>): Promise<void> {
  const entity = claim(services)
  if (isBlank(body.id) || typeof body.id !== 'string') throw invalid('请选择报销单', 'id')
  let target: number
  if (body.pass === true || body.pass === 'true') target = APPROVE_PASS
  else if (body.pass === false || body.pass === 'false') target = APPROVE_REFUSE
  else {
    const parsed = services.registry.enums.parse('CRM_REIMBURSE_STATUS', body.status)
    if (parsed !== APPROVE_PASS && parsed !== APPROVE_REFUSE) throw invalid('请选择审核结果（通过或拒绝）', 'status')
    target = parsed
  }
  const reason = isBlank(body.refuseReason ?? body.reason) ? '' : String(body.refuseReason ?? body.reason).trim()
  if (target === APPROVE_REFUSE && !reason) throw invalid('拒绝理由不能为空', 'refuseReason')
  if ([...reason].length > 200) throw invalid('拒绝理由长度不能超过200个字符', 'refuseReason')
  const row = await trx.selectFrom(entity.table).select(['id', 'status', 'manager_id', 'create_by_id']).where('id', '=', body.id).executeTakeFirst()
  if (!row || (String(row.manager_id) !== ctx.userId && String(row.create_by_id) !== ctx.userId && !ctx.isAdmin)) throw notFound('报销单不存在！')
  if (String(row.manager_id) !== ctx.userId) throw forbidden('只有该报销单的审批人才能审核')
  const done = await trx
    .updateTable(entity.table)
    .set({ status: target, approve_by: ctx.name, approve_time: now(), refuse_reason: target === APPROVE_REFUSE ? reason : null, update_by: ctx.name, update_by_id: ctx.userId, update_time: now() })
    .where('id', '=', body.id)
    .where('manager_id', '=', ctx.userId)
    .where('status', '=', CREATED)
    .executeTakeFirst()
  if (!Number(done.numUpdatedRows)) throw invalid('报销单已审核，不能重复审核')
  await writeOpLog(trx, ctx, target === APPROVE_PASS ? '审核通过报销单' : '审核拒绝报销单', OpLogType.OTHER, { id: body.id })
}

type Box = 'mine' | 'approve'

/**
 * GET /crm/cost/list (my claims; admins: everyone's) and /crm/cost/approveList (claims whose approver
 * I am: pending ones unless `status` asks for others). Conditions: code, title, status, createTime
 * range (`startTime`, `endTime`), paging.
 */
export async function listClaims(services: Services, db: Db, ctx: RequestContext, box: Box, query: Record<string, unknown>) {
  const entity = claim(services)
  let base = db.selectFrom(`${entity.table} as t`)
  if (box === 'approve') {
    base = base.where('t.manager_id', '=', ctx.userId)
    const status = isBlank(query.status) ? CREATED : services.registry.enums.parse('CRM_REIMBURSE_STATUS', query.status)
    if (status === undefined) throw invalid('审核状态取值不正确', 'status')
    base = base.where('t.status', '=', status)
  } else {
    if (!ctx.isAdmin || query.mine === '1' || query.mine === 'true') base = base.where('t.create_by_id', '=', ctx.userId)
    if (!isBlank(query.status)) {
      const status = services.registry.enums.parse('CRM_REIMBURSE_STATUS', query.status)
      if (status === undefined) throw invalid('审核状态取值不正确', 'status')
      base = base.where('t.status', '=', status)
    }
  }
  const escape = (v: unknown) => `%${String(v).replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  if (!isBlank(query.code)) base = base.where(sql<SqlBool>`t.code like ${escape(query.code)} escape '\\'`)
  if (!isBlank(query.title)) base = base.where(sql<SqlBool>`t.title like ${escape(query.title)} escape '\\'`)
  const DATETIME = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/
  for (const [name, op, fill] of [['startTime', '>=', ' 00:00:00'], ['endTime', '<=', ' 23:59:59']] as const) {
    if (isBlank(query[name])) continue
    const v = String(query[name])
    if (!DATETIME.test(v)) throw invalid('时间格式不正确', name)
    base = base.where('t.create_time', op, v.length === 10 ? v + fill : v)
  }
  const { pageIndex, pageSize } = pageArgs(query)
  const totalCount = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0)
  const rows = await base.selectAll('t').orderBy('t.create_time', 'desc').orderBy('t.id', 'desc').limit(pageSize).offset((pageIndex - 1) * pageSize).execute()
  return { pageIndex, pageSize, totalCount, datas: await answer(services, db, ctx, rows) }
}

async function answer(services: Services, db: Db, ctx: RequestContext, rows: Record<string, unknown>[]): Promise<Wire[]> {
  const entity = claim(services)
  const user = services.registry.get('user')
  const dept = services.registry.get('dept')
  const wires = await services.store.answer(db, ctx, entity, rows)
  const userIds = [...new Set(rows.flatMap((r) => [r.manager_id, r.create_by_id]).filter(Boolean).map(String))]
  const deptIds = [...new Set(rows.map((r) => r.dept_id).filter(Boolean).map(String))]
  const names = new Map((userIds.length ? await db.selectFrom(user.table).select(['id', 'name']).where('id', 'in', userIds).execute() : []).map((u) => [String(u.id), String(u.name ?? '')]))
  const depts = new Map((deptIds.length ? await db.selectFrom(dept.table).select(['id', 'name']).where('id', 'in', deptIds).execute() : []).map((d) => [String(d.id), String(d.name ?? '')]))
  rows.forEach((row, i) => {
    const w = wires[i]
    w.createById = row.create_by_id
    w.applicantName = names.get(String(row.create_by_id)) ?? row.create_by
    w.managerName = names.get(String(row.manager_id)) ?? ''
    w.deptName = depts.get(String(row.dept_id)) ?? ''
    const status = Number(row.status)
    w.canApprove = status === CREATED && String(row.manager_id) === ctx.userId
    w.canModify = status !== APPROVE_PASS && String(row.create_by_id) === ctx.userId
  })
  return wires
}

/** GET /crm/cost/getDetail?id: the claim with its lines, for its applicant, its approver or an admin. */
export async function claimDetail(services: Services, db: Db, ctx: RequestContext, id: unknown): Promise<Wire> {
  if (isBlank(id) || typeof id !== 'string') throw invalid('请选择报销单', 'id')
  const entity = claim(services)
  let q = db.selectFrom(`${entity.table} as t`).selectAll('t').where('t.id', '=', id)
  if (!ctx.isAdmin) q = q.where((eb) => eb.or([eb('t.create_by_id', '=', ctx.userId), eb('t.manager_id', '=', ctx.userId)]))
  const row = await q.executeTakeFirst()
  if (!row) throw notFound('报销单不存在！')
  const [wire] = await answer(services, db, ctx, [row])
  const lines = lineEntity(services)
  const rows = await db.selectFrom(lines.table).selectAll().where('reimburse_id', '=', id).orderBy('order_no').execute()
  wire.details = rows.map((r) => {
    const l = services.codec.fromRow(lines, r)
    return { id: l.id, category: l.category, amount: l.amount, occurDate: l.occurDate, description: l.description }
  })
  return wire
}
