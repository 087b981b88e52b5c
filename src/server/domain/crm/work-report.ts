import dayjs from 'dayjs'
import Decimal from 'decimal.js'
import { sql, type Expression, type SqlBool } from 'kysely'
import type { Db } from '../../db/dialect.js'
import type { Services } from '../../engine/services.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import { CRM_CONTRACT_STATUS, CRM_WORK_REPORT_TYPE } from '../../../shared/generated/enum-codes.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { forbidden, invalid, notFound } from '../../platform/errors.js'
import { now, today } from '../../platform/clock.js'
import { newId } from '../../platform/ids.js'
import { hasPermission, type RequestContext } from '../../platform/request-context.js'
import { pageArgs } from '../../platform/page-args.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import type { Wire } from '../../engine/record-codec.js'
import { teamOf } from './dept-leaders.js'
import { followsParent } from '../../engine/parent-rows.js'

/**
 * Weekly and monthly work reports (issue 13; WukongCRM OaLog categoryId 2 周报 / 3 月报): content, plan,
 * problems, recipients with their read state, and the statistics of a period per person.
 *
 * Who sees a report: its author, its recipients, the leaders of the author's departments (and of the
 * departments above them), and admins. One predicate (`visibleReports`) is put under every statement
 * of the module: list, detail, delete.
 */
export type ReportType = (typeof CRM_WORK_REPORT_TYPE)[keyof typeof CRM_WORK_REPORT_TYPE]
export const WEEKLY: ReportType = CRM_WORK_REPORT_TYPE.WEEKLY
export const MONTHLY: ReportType = CRM_WORK_REPORT_TYPE.MONTHLY

const KEY_PREFIX: Record<ReportType, string> = { [WEEKLY]: 'crm:weekly-report', [MONTHLY]: 'crm:monthly-report' }
const KIND_LABEL: Record<ReportType, string> = { [WEEKLY]: '周报', [MONTHLY]: '月报' }

/** The permission key of an action on a kind of report. */
export const reportKey = (type: ReportType, action: 'query' | 'add' | 'delete') => `${KEY_PREFIX[type]}:${action}`

export function parseReportType(value: unknown, required = true): ReportType | undefined {
  if (isBlank(value)) {
    if (required) throw invalid('报告类型不能为空', 'reportType')
    return undefined
  }
  const n = Number(value)
  if (n === WEEKLY || n === MONTHLY) return n
  throw invalid('报告类型取值不正确', 'reportType')
}

function requireKey(ctx: RequestContext, type: ReportType, action: 'query' | 'add' | 'delete') {
  if (!hasPermission(ctx, [reportKey(type, action)])) throw forbidden()
}

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** The period of a report containing `date`: Monday to Sunday, or the calendar month. */
export function periodOf(type: ReportType, date: unknown): { startDate: string; endDate: string } {
  const text = isBlank(date) ? today() : String(date).slice(0, 10)
  const day = dayjs(text, 'YYYY-MM-DD')
  if (!DATE.test(text) || !day.isValid() || day.format('YYYY-MM-DD') !== text) throw invalid('报告日期格式不正确', 'startDate')
  if (type === WEEKLY) {
    const start = day.subtract((day.day() + 6) % 7, 'day')
    return { startDate: start.format('YYYY-MM-DD'), endDate: start.add(6, 'day').format('YYYY-MM-DD') }
  }
  return { startDate: day.startOf('month').format('YYYY-MM-DD'), endDate: day.endOf('month').format('YYYY-MM-DD') }
}

/** Authors whose reports the caller follows (themselves and the members of departments they lead); null = everyone (admin). */
async function followedAuthors(services: Services, db: Db, ctx: RequestContext): Promise<string[] | null> {
  return ctx.isAdmin ? null : teamOf(db, services.registry, ctx.userId)
}

/** `t` (crm_work_report) rows the caller may see. */
async function visibleReports(services: Services, db: Db, ctx: RequestContext): Promise<Expression<SqlBool>> {
  const authors = await followedAuthors(services, db, ctx)
  if (!authors) return sql<SqlBool>`1 = 1`
  return sql<SqlBool>`(t.create_by_id in (${sql.join(authors)}) or t.id in (${receivedBy(services, db, ctx.userId)}))`
}

/**
 * The store's row rules of reports and their recipient rows: whoever reads the tables outside these
 * calls (the custom lists) sees the reports the caller may see, and only their recipients.
 */
export function workReportRowRules(services: Services): void {
  services.hooks.on(report(services).name, { restrictRows: ({ db, ctx }) => visibleReports(services, db, ctx) })
  services.hooks.on(recipientEntity(services).name, followsParent(services.store, report(services), 'report_id'))
}

/** Ids of the reports `userId` received (all, or only those still unread): a builder subquery, so the tenant schema applies. */
function receivedBy(services: Services, db: Db, userId: string, unreadOnly = false) {
  let q = db.selectFrom(services.registry.get('crmWorkReportRecipient').table).select('report_id').where('user_id', '=', userId)
  if (unreadOnly) q = q.where('read_time', 'is', null)
  return q
}

const report = (services: Services) => services.registry.get('crmWorkReport')
const recipientEntity = (services: Services) => services.registry.get('crmWorkReportRecipient')

function recipientIdsOf(value: unknown): string[] {
  if (isBlank(value)) return []
  const ids = Array.isArray(value) ? value : String(value).split(',')
  if (ids.some((id) => typeof id !== 'string' || !id.trim())) throw invalid('接收人取值不正确', 'recipientIds')
  return [...new Set(ids.map((id) => String(id).trim()))]
}

/** POST /crm/workReport/add: one report per author, kind and period; recipients must be enabled users. */
export async function addReport(services: Services, trx: Db, ctx: RequestContext, body: Record<string, unknown>): Promise<string> {
  const type = parseReportType(body.reportType)!
  requireKey(ctx, type, 'add')
  const { startDate, endDate } = periodOf(type, body.startDate ?? body.date)
  const recipients = recipientIdsOf(body.recipientIds)
  if (recipients.includes(ctx.userId)) throw invalid('接收人不能是自己', 'recipientIds')
  if (recipients.length > 50) throw invalid('接收人不能超过50人', 'recipientIds')
  const entity = report(services)
  const user = services.registry.get('user')
  if (recipients.length) {
    const found = await trx.selectFrom(user.table).select(['id', 'available']).where('id', 'in', recipients).execute()
    const enabled = found.filter((u) => u.available === true || Number(u.available) === 1)
    if (enabled.length !== recipients.length) throw invalid('接收人不存在或已停用', 'recipientIds')
  }
  // One report per period: the author's user row is locked first (PostgreSQL; SQLite runs one writer at a
  // time), so two submissions at once cannot both pass the check below.
  if (services.databases.kind === 'postgres') await trx.selectFrom(user.table).select('id').where('id', '=', ctx.userId).forUpdate().execute()
  const duplicate = await trx
    .selectFrom(entity.table)
    .select('id')
    .where('create_by_id', '=', ctx.userId)
    .where('report_type', '=', type)
    .where('start_date', '=', startDate)
    .executeTakeFirst()
  if (duplicate) throw invalid(`${startDate}至${endDate}的${KIND_LABEL[type]}已提交，请勿重复提交`, 'startDate')
  const values: Wire = { reportType: type, startDate, content: body.content, plan: body.plan, question: body.question }
  const id = await services.store.create(trx, ctx, entity, values)
  await trx.updateTable(entity.table).set({ end_date: endDate }).where('id', '=', id).execute()
  if (recipients.length)
    await trx
      .insertInto(recipientEntity(services).table)
      .values(recipients.map((userId) => ({ id: newId(), report_id: id, user_id: userId, read_time: null, create_by: ctx.name, create_by_id: ctx.userId, create_time: now(), update_by: ctx.name, update_by_id: ctx.userId, update_time: now() })))
      .execute()
  return id
}

/** DELETE /crm/workReport/delete: the author's own reports only (a leader reads, never deletes, a member's report). */
export async function deleteReports(services: Services, trx: Db, ctx: RequestContext, ids: string[]): Promise<void> {
  const entity = report(services)
  const rows = await trx
    .selectFrom(`${entity.table} as t`)
    .select(['t.id', 't.report_type', 't.create_by_id'])
    .where('t.id', 'in', ids)
    .where(await visibleReports(services, trx, ctx))
    .execute()
  if (rows.length !== new Set(ids).size) throw notFound('工作报告不存在！')
  for (const r of rows) {
    requireKey(ctx, Number(r.report_type) as ReportType, 'delete')
    if (String(r.create_by_id) !== ctx.userId) throw invalid('只能删除自己的工作报告')
  }
  await trx.deleteFrom(recipientEntity(services).table).where('report_id', 'in', ids).execute()
  await trx.deleteFrom(entity.table).where('id', 'in', ids).where('create_by_id', '=', ctx.userId).execute()
  await writeOpLog(trx, ctx, `删除${entity.label}`, OpLogType.OTHER, { ids })
}

interface RecipientState {
  userId: string
  userName: string
  read: boolean
  readTime: string | null
}

async function recipientsOf(services: Services, db: Db, reportIds: string[]): Promise<Map<string, RecipientState[]>> {
  const out = new Map<string, RecipientState[]>()
  if (!reportIds.length) return out
  const user = services.registry.get('user')
  const rows = await db
    .selectFrom(`${recipientEntity(services).table} as r`)
    .leftJoin(`${user.table} as u`, 'u.id', 'r.user_id')
    .select(['r.report_id', 'r.user_id', 'r.read_time', 'u.name'])
    .where('r.report_id', 'in', reportIds)
    .orderBy('u.name')
    .execute()
  for (const r of rows) {
    const readTime = r.read_time ? services.codec.fromColumn(recipientEntity(services).byName.get('readTime')!, r.read_time) : null
    const list = out.get(String(r.report_id)) ?? []
    list.push({ userId: String(r.user_id), userName: String(r.name ?? ''), read: !!r.read_time, readTime: readTime ? String(readTime) : null })
    out.set(String(r.report_id), list)
  }
  return out
}

/**
 * GET /crm/workReport/list: the reports of one kind the caller may see, newest period first; `box`
 * narrows to 我发出的 (`sent`) or 我收到的 (`received`), `unread=1` to those the caller has not read;
 * `userId`, `startDate`/`endDate` (period overlap) and `keyword` (content, plan) narrow further. With
 * `id`, the answer is that one report (the detail page) and it is marked read for a recipient.
 */
export async function listReports(services: Services, db: Db, ctx: RequestContext, query: Record<string, unknown>) {
  const entity = report(services)
  if (!isBlank(query.id)) return reportDetail(services, db, ctx, String(query.id))
  const type = parseReportType(query.reportType)!
  requireKey(ctx, type, 'query')
  let base = db.selectFrom(`${entity.table} as t`).where('t.report_type', '=', type).where(await visibleReports(services, db, ctx))
  if (query.box === 'sent') base = base.where('t.create_by_id', '=', ctx.userId)
  else if (query.box === 'received') base = base.where('t.id', 'in', receivedBy(services, db, ctx.userId))
  else if (!isBlank(query.box) && query.box !== 'all') throw invalid('box取值不正确', 'box')
  if (query.unread === '1' || query.unread === 'true' || query.unread === true) base = base.where('t.id', 'in', receivedBy(services, db, ctx.userId, true))
  if (!isBlank(query.userId)) base = base.where('t.create_by_id', '=', String(query.userId))
  if (!isBlank(query.startDate)) base = base.where('t.end_date', '>=', periodOf(type, query.startDate).startDate)
  if (!isBlank(query.endDate)) base = base.where('t.start_date', '<=', String(periodOf(type, query.endDate).endDate))
  if (!isBlank(query.keyword)) {
    const like = `%${String(query.keyword).replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    base = base.where(sql<SqlBool>`(t.content like ${like} escape '\\' or t.plan like ${like} escape '\\')`)
  }
  const { pageIndex, pageSize } = pageArgs(query)
  const totalCount = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0)
  const rows = await base
    .selectAll('t')
    .orderBy('t.start_date', 'desc')
    .orderBy('t.create_time', 'desc')
    .orderBy('t.id', 'desc')
    .limit(pageSize)
    .offset((pageIndex - 1) * pageSize)
    .execute()
  const datas = await decorate(services, db, ctx, entity, rows)
  return { pageIndex, pageSize, totalCount, datas }
}

async function decorate(services: Services, db: Db, ctx: RequestContext, entity: EntityModel, rows: Record<string, unknown>[]): Promise<Wire[]> {
  const wires = await services.store.answer(db, ctx, entity, rows)
  const states = await recipientsOf(services, db, wires.map((w) => String(w.id)))
  rows.forEach((row, i) => {
    const wire = wires[i]
    const list = states.get(String(wire.id)) ?? []
    wire.createById = row.create_by_id
    wire.recipients = list
    wire.recipientIds = list.map((r) => r.userId)
    wire.recipientNames = list.map((r) => r.userName).join('，')
    wire.readCount = list.filter((r) => r.read).length
    const me = list.find((r) => r.userId === ctx.userId)
    // For the caller: null when they are no recipient, else whether they have read it.
    wire.read = me ? me.read : null
    wire.mine = String(row.create_by_id) === ctx.userId
  })
  return wires
}

async function reportDetail(services: Services, db: Db, ctx: RequestContext, id: string): Promise<Wire> {
  const entity = report(services)
  const row = await db.selectFrom(`${entity.table} as t`).selectAll('t').where('t.id', '=', id).where(await visibleReports(services, db, ctx)).executeTakeFirst()
  if (!row) throw notFound('工作报告不存在！')
  requireKey(ctx, Number(row.report_type) as ReportType, 'query')
  // Opening a report one received marks it read (once: the first reading time is kept).
  await db
    .updateTable(recipientEntity(services).table)
    .set({ read_time: now() })
    .where('report_id', '=', id)
    .where('user_id', '=', ctx.userId)
    .where('read_time', 'is', null)
    .execute()
  const [wire] = await decorate(services, db, ctx, entity, [row])
  return wire
}

/**
 * The figures of the statistics, each from one small declared query: count (or sum of `sum`) of the
 * rows of `entity` whose `person` column names the user and whose `time` falls in the period. Tables of
 * other CRM parts may not exist yet: a figure whose entity or columns the registry does not know answers
 * 0 and is reported in `sources` as null, so the figure lights up once the entity is registered.
 * Names are tried in order; `createById` / `createTime` are the audit columns every entity has. With
 * `via`, the person is found on the row a ref field points at (a collection counts for the contract's
 * 负责人, not for the clerk who recorded it).
 */
interface FigureSource {
  key: string
  label: string
  entities: string[]
  person: string[]
  time: string[]
  /** Sum this amount field (exactly, with decimal.js) instead of counting rows. */
  sum?: string[]
  /** The person is a field of the row `field` points at (an entity of `entities`), not of the row itself. */
  via?: { field: string; entities: string[] }
  /** Conditions over the entity's fields (field = value), e.g. only this kind of report; the fields are required of the source. */
  where?: (type: ReportType) => Record<string, unknown>
}

export const FIGURES: readonly FigureSource[] = [
  { key: 'reports', label: '提交报告', entities: ['crmWorkReport'], person: ['createById'], time: ['startDate'], where: (type) => ({ reportType: type }) },
  // 跟进记录 (crm_customer_action): by the follower, at the follow-up time.
  { key: 'followUps', label: '跟进次数', entities: ['crmCustomerAction'], person: ['followerId', 'createById'], time: ['actionTime', 'createTime'] },
  // Customers entered by the person in the period (kept when the customer later changes owner).
  { key: 'newCustomers', label: '新增客户', entities: ['customer'], person: ['createById'], time: ['createTime'] },
  // Approved contracts (crm_contract) of the person as 负责人, by signing date.
  { key: 'contracts', label: '新增合同', entities: ['crmContract'], person: ['principalId', 'createById'], time: ['signDate', 'createTime'], where: () => ({ status: CRM_CONTRACT_STATUS.APPROVE_PASS }) },
  { key: 'contractAmount', label: '合同金额', entities: ['crmContract'], person: ['principalId', 'createById'], time: ['signDate', 'createTime'], sum: ['amount'], where: () => ({ status: CRM_CONTRACT_STATUS.APPROVE_PASS }) },
  // Collections (crm_contract_receive) by receiving date, for the 负责人 of their contract.
  {
    key: 'collectionAmount',
    label: '回款金额',
    entities: ['crmContractReceive'],
    person: ['principalId', 'createById'],
    time: ['receiveDate', 'createTime'],
    sum: ['amount'],
    via: { field: 'contractId', entities: ['crmContract'] },
  },
]

const AUDIT: Record<string, { column: string; type: 'datetime' | 'ref' }> = {
  createById: { column: 'create_by_id', type: 'ref' },
  createTime: { column: 'create_time', type: 'datetime' },
}

interface ResolvedColumn {
  column: string
  type: string
}

function column(entity: EntityModel, names: string[]): ResolvedColumn | undefined {
  for (const name of names) {
    const f = entity.byName.get(name)
    if (f && !f.virtual && !(f.type === 'ref' && f.multiple)) return { column: f.column, type: f.type }
    if (AUDIT[name]) return AUDIT[name]
  }
  return undefined
}

interface ResolvedFigure {
  source: FigureSource
  entity: EntityModel
  /** Column of the person: on `t`, or on `p` when the person is found through `via`. */
  person: ResolvedColumn
  time: ResolvedColumn
  sum?: ResolvedColumn
  via?: { column: string; entity: EntityModel }
}

const tenantEntity = (services: Services, name: string) => {
  const entity = services.registry.find(name)
  return entity && entity.scope !== 'platform' ? entity : undefined
}

function resolve(services: Services, source: FigureSource): ResolvedFigure | undefined {
  for (const name of source.entities) {
    const entity = tenantEntity(services, name)
    if (!entity) continue
    const time = column(entity, source.time)
    const sum = source.sum ? column(entity, source.sum) : undefined
    if (!time || (source.sum && !sum)) continue
    if (Object.keys(source.where?.(WEEKLY) ?? {}).some((name) => !entity.byName.get(name) || entity.byName.get(name)!.virtual)) continue
    if (!source.via) {
      const person = column(entity, source.person)
      if (person) return { source, entity, person, time, sum }
      continue
    }
    const link = entity.byName.get(source.via.field)
    if (!link || link.type !== 'ref' || link.multiple || link.virtual) continue
    for (const target of source.via.entities.map((n) => tenantEntity(services, n))) {
      if (!target || link.ref !== target.name) continue
      const person = column(target, source.person)
      if (person) return { source, entity, person, time, sum, via: { column: link.column, entity: target } }
    }
  }
  return undefined
}

/** The figures of one period per person, with the team's totals. */
async function figureValues(services: Services, db: Db, figure: ResolvedFigure, type: ReportType, people: string[], start: string, end: string) {
  const { entity, time, sum, source, via } = figure
  const personRef = `${via ? 'p' : 't'}.${figure.person.column}`
  const nextDay = dayjs(end).add(1, 'day').format('YYYY-MM-DD')
  const [from, to] = time.type === 'date' ? [start, nextDay] : [`${start} 00:00:00`, `${nextDay} 00:00:00`]
  let base = db.selectFrom(`${entity.table} as t`)
  if (via) base = base.innerJoin(`${via.entity.table} as p`, 'p.id', `t.${via.column}`)
  let q = base
    .where(personRef, 'in', people)
    .where(`t.${time.column}`, '>=', from)
    .where(`t.${time.column}`, '<', to)
  for (const [name, value] of Object.entries(source.where?.(type) ?? {})) {
    const f = entity.byName.get(name)!
    q = q.where(`t.${f.column}`, '=', services.codec.toColumn(f, value))
  }
  const out = new Map<string, string>()
  if (!sum) {
    const rows = await q.select([`${personRef} as person`, (eb) => eb.fn.countAll().as('n')]).groupBy(personRef).execute()
    for (const r of rows) out.set(String(r.person), String(Number(r.n)))
    return out
  }
  // Money is added with decimal.js (SQLite keeps it as text: SUM there would be binary floating point).
  const rows = await q.select([`${personRef} as person`, `t.${sum.column} as amount`]).execute()
  const totals = new Map<string, Decimal>()
  for (const r of rows) {
    if (r.amount === null || r.amount === undefined) continue
    totals.set(String(r.person), (totals.get(String(r.person)) ?? new Decimal(0)).plus(new Decimal(String(r.amount))))
  }
  for (const [k, v] of totals) out.set(k, v.toFixed(2))
  return out
}

/**
 * GET /crm/workReport/getWeekStatis and getMonthStatis: for the week (or month) containing `date`
 * (today by default), per person the caller follows (themselves, members of departments they lead;
 * everyone for an admin; `userId` narrows to one of them): reports handed in, follow-ups, new
 * customers, new contracts and their amount, collections. Counts are numbers, money 2-place strings.
 */
export async function reportStatistics(services: Services, db: Db, ctx: RequestContext, type: ReportType, query: Record<string, unknown>) {
  requireKey(ctx, type, 'query')
  const { startDate, endDate } = periodOf(type, query.date ?? query.startDate)
  const user = services.registry.get('user')
  const followed = await followedAuthors(services, db, ctx)
  let people = db.selectFrom(user.table).select(['id', 'name', 'code'])
  if (followed) people = people.where('id', 'in', followed)
  else people = people.where((eb) => eb.or([eb('available', '=', services.codec.toColumn(user.byName.get('available')!, true)), eb('id', '=', ctx.userId)]))
  if (!isBlank(query.userId)) {
    if (followed && !followed.includes(String(query.userId))) throw notFound('用户不存在！')
    people = people.where('id', '=', String(query.userId))
  }
  const users = await people.orderBy('code').execute()
  const ids = users.map((u) => String(u.id))
  const figures = FIGURES.map((source) => ({ source, resolved: resolve(services, source) }))
  const values = new Map<string, Map<string, string>>()
  for (const { source, resolved } of figures)
    values.set(source.key, resolved && ids.length ? await figureValues(services, db, resolved, type, ids, startDate, endDate) : new Map())
  const rows = users.map((u) => {
    const row: Record<string, unknown> = { userId: String(u.id), userName: String(u.name ?? '') }
    for (const { source } of figures) {
      const v = values.get(source.key)!.get(String(u.id))
      row[source.key] = source.sum ? v ?? '0.00' : Number(v ?? 0)
    }
    return row
  })
  const totals: Record<string, unknown> = {}
  for (const { source } of figures)
    totals[source.key] = source.sum
      ? rows.reduce((acc, r) => acc.plus(String(r[source.key])), new Decimal(0)).toFixed(2)
      : rows.reduce((acc, r) => acc + Number(r[source.key]), 0)
  return {
    reportType: type,
    startDate,
    endDate,
    figures: figures.map(({ source, resolved }) => ({ key: source.key, label: source.label, money: !!source.sum, available: !!resolved })),
    sources: Object.fromEntries(figures.map(({ source, resolved }) => [source.key, resolved ? resolved.entity.table : null])),
    rows,
    totals,
  }
}
