import { sql, type SqlBool } from 'kysely'
import type { Db } from '../../db/dialect.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { EntityHooks } from '../../engine/entity-hooks.js'
import type { EntityStore } from '../../engine/entity-store.js'
import { linkTable } from '../../engine/entity-tables.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { invalid, notFound } from '../../platform/errors.js'
import { today } from '../../platform/clock.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Wire } from '../../engine/record-codec.js'

/** CRM_MEMORIAL_TYPE 1: a birthday, which may take its date from the contact. */
const BIRTHDAY = 1
const MAX_SHARES = 200

const sharedTable = (entity: EntityModel) => linkTable(entity, entity.byName.get('sharedUserIds')!)

/**
 * 纪念日 rules: a memorial is its creator's (owner_id) and is seen by the colleagues it is shared with;
 * every statement the store builds carries that predicate (restrictRows), so get, modify and lists
 * alike answer 不存在 for anyone else's. Only the owner modifies, shares or deletes. A birthday of a
 * contact without a date takes the contact's birthday; otherwise the date is required.
 */
export function crmMemorialHooks(): EntityHooks {
  return {
    restrictRows({ db, ctx, entity }) {
      // Built from `db`, so the tenant's PostgreSQL schema reaches the link table too.
      const shared = db.selectFrom(sharedTable(entity)).select('owner_id').where('ref_id', '=', ctx.userId)
      return sql<SqlBool>`(${sql.ref('t.owner_id')} = ${ctx.userId} or ${sql.ref('t.id')} in (${shared}))`
    },
    async beforeSave({ trx, ctx, mode, values, existing }) {
      if (mode === 'modify' && existing && existing.ownerId !== ctx.userId) throw invalid('只能修改自己创建的纪念日')
      const merged = { ...existing, ...values }
      if (isBlank(merged.memorialDate) && Number(merged.memorialType) === BIRTHDAY && !isBlank(merged.contactId)) {
        const contact = await trx.selectFrom('crm_contact').select('birthday').where('id', '=', String(merged.contactId)).executeTakeFirst()
        if (contact?.birthday) values.memorialDate = String(contact.birthday)
      }
      if (isBlank(values.memorialDate ?? merged.memorialDate)) throw invalid('日期不能为空', 'memorialDate')
      if (!isBlank(merged.contactId)) {
        const contact = await trx.selectFrom('crm_contact').select('customer_id').where('id', '=', String(merged.contactId)).executeTakeFirst()
        if (contact && !isBlank(merged.customerId) && String(contact.customer_id) !== String(merged.customerId))
          throw invalid('联系人不属于该客户', 'contactId')
        if (contact && isBlank(merged.customerId)) values.customerId = String(contact.customer_id)
      }
    },
    async afterSave({ trx, ctx, mode, id }) {
      if (mode === 'create') await trx.updateTable('crm_memorial').set({ owner_id: ctx.userId }).where('id', '=', id).execute()
    },
    // The list (the engine's `query`, so the page's list is declared like every other) shows the next day.
    async decorate(rows) {
      const from = today()
      for (const row of rows) Object.assign(row, nextOf(row, from))
    },
  }
}

const pad = (n: number) => String(n).padStart(2, '0')
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
const dayNumber = (d: string) => Math.round(Date.parse(`${d}T00:00:00Z`) / 86_400_000)

/** The next day (on or after `from`) a memorial falls on; 2-29 is kept on 2-28 in common years. */
export function nextOccurrence(date: string, repeatYearly: boolean, from: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}/.test(date)) return undefined
  const day = date.slice(0, 10)
  if (!repeatYearly) return day >= from ? day : undefined
  const [, m, d] = day.split('-').map(Number)
  const year = Number(from.slice(0, 4))
  for (const y of [year, year + 1]) {
    const dd = m === 2 && d === 29 && !isLeap(y) ? 28 : d
    const candidate = `${y}-${pad(m)}-${pad(dd)}`
    if (candidate >= from) return candidate
  }
  return undefined
}

/** A memorial's next day and the days left until it (from `from`). */
function nextOf(row: Wire, from: string): { nextDate: string | null; daysLeft: number | null } {
  const next = nextOccurrence(String(row.memorialDate ?? ''), row.repeatYearly !== false, from)
  return { nextDate: next ?? null, daysLeft: next ? dayNumber(next) - dayNumber(from) : null }
}

/** Adds nextDate and daysLeft (from today) to memorial rows. */
export function withNext(rows: Wire[], from = today()): Wire[] {
  return rows.map((r) => ({ ...r, ...nextOf(r, from) }))
}

/**
 * 我的提醒 (`GET /basedata/memorial/myRemindQuery`): the caller's own and shared memorials whose next day
 * is within their remindDays, soonest first. The header bell shows these.
 */
export async function myReminders(db: Db, ctx: RequestContext, store: EntityStore, entity: EntityModel) {
  const page = await store.list(db, ctx, entity, { params: [], columns: entity.file.views?.list?.columns, values: {}, paged: false })
  return withNext(page.datas)
    .filter((r) => r.daysLeft !== null && Number(r.daysLeft) <= Number(r.remindDays ?? 0))
    .sort((a, b) => Number(a.daysLeft) - Number(b.daysLeft))
}

/** The memorial's owner shares it with colleagues (replacing the list); others get 不存在 or a refusal. */
export async function shareMemorial(trx: Db, ctx: RequestContext, store: EntityStore, entity: EntityModel, body: Record<string, unknown>) {
  const record = await store.get(trx, ctx, entity, body.id)
  if (record.ownerId !== ctx.userId) throw invalid('只能分享自己创建的纪念日')
  const raw = body.userIds
  if (!Array.isArray(raw)) throw invalid('请选择要分享的同事', 'userIds')
  const userIds = [...new Set(raw.map(String).filter((u) => u && u !== ctx.userId))]
  if (userIds.length > MAX_SHARES) throw invalid(`一次最多分享给${MAX_SHARES}位同事`, 'userIds')
  if (userIds.length) {
    const found = await trx.selectFrom('sys_user').select('id').where('id', 'in', userIds).execute()
    if (found.length !== userIds.length) throw invalid('分享的同事不存在', 'userIds')
  }
  const table = sharedTable(entity)
  const id = String(record.id)
  await trx.deleteFrom(table).where('owner_id', '=', id).execute()
  if (userIds.length) await trx.insertInto(table).values(userIds.map((u) => ({ owner_id: id, ref_id: u }))).execute()
  await writeOpLog(trx, ctx, '分享纪念日', OpLogType.OTHER, { id, userIds })
}

/** Deletes the caller's own memorials (a shared one cannot be deleted by those it is shared with). */
export async function deleteMemorials(trx: Db, ctx: RequestContext, store: EntityStore, entity: EntityModel, ids: string[]) {
  const rows = await store.loadByIds(trx, ctx, entity, ids, [])
  if (rows.length !== new Set(ids).size) throw notFound('纪念日不存在！')
  if (rows.some((r) => r.ownerId !== ctx.userId)) throw invalid('只能删除自己创建的纪念日')
  await store.remove(trx, ctx, entity, ids)
}
