import dayjs from 'dayjs'
import type { SelectQueryBuilder } from 'kysely'
import type { Db } from '../../db/dialect.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { invalid } from '../../platform/errors.js'
import { pageArgs } from '../../platform/page-args.js'
import { unreadableCondition, type ConditionField } from '../../engine/condition-values.js'
import type { SettleSide } from './parties.js'

/** The party of a candidates call (`supplierId` / `customerId`), required. */
export function partyOf(side: SettleSide, query: Record<string, unknown>): string {
  const party = query[side.partyField]
  if (typeof party !== 'string' || isBlank(party)) throw invalid(`请选择${side.partyLabel}`, side.partyField)
  return party.trim()
}

const day = (value: unknown, label: string, field: string): string | undefined => {
  if (isBlank(value)) return undefined
  const text = String(value).trim().slice(0, 10)
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !dayjs(text, 'YYYY-MM-DD').isValid() || dayjs(text).format('YYYY-MM-DD') !== text)
    throw unreadableCondition(label, field)
  return text
}

/** What a candidates call reads: its party and the approve-time range. */
export const candidateConditions = (side: SettleSide): ConditionField[] => [
  { name: side.partyField, label: side.partyLabel, kind: 'id' },
  { name: 'startTime', label: '起始日期', kind: 'datetime' },
  { name: 'endTime', label: '截止日期', kind: 'datetime' },
]

/**
 * The approve-time range of a candidates call: `startTime` and `endTime` as dates, both days included
 * (approve_time ≥ start 00:00:00 and < the day after the end), as text both databases compare.
 */
export function approveRange(query: Record<string, unknown>): { from?: string; before?: string } {
  const from = day(query.startTime, '起始日期', 'startTime')
  const to = day(query.endTime, '截止日期', 'endTime')
  return {
    from: from && `${from} 00:00:00`,
    before: to && `${dayjs(to).add(1, 'day').format('YYYY-MM-DD')} 00:00:00`,
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySelect = SelectQueryBuilder<any, any, any>

export function withinRange<Q extends AnySelect>(q: Q, range: { from?: string; before?: string }, column = 'approve_time'): Q {
  let out = q
  if (range.from) out = out.where(column, '>=', range.from) as Q
  if (range.before) out = out.where(column, '<', range.before) as Q
  return out
}

/**
 * One page of the candidate rows of several kinds (`parts`, one query per document table) and their
 * count, both in SQL, ordered by approve time then `key`. Each part is cut to the rows the page can need
 * (ORDER BY … LIMIT offset + size, read through the party/settle/approve-time index) before the UNION
 * ALL, so the first page costs the same at 10 thousand or 100 thousand open documents (bench
 * settle-candidates); only the count reads every candidate.
 */
export async function pageOf(db: Db, parts: AnySelect[], key: string, query: Record<string, unknown>) {
  const { pageIndex, pageSize } = pageArgs(query)
  const union = (queries: AnySelect[]) => queries.reduce((all, q) => all.unionAll(q))
  const counted = await db
    .selectFrom(union(parts).as('u'))
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst()
  const needed = pageIndex * pageSize
  const cut = parts.map((part, i) => db.selectFrom(part.orderBy('approve_time').orderBy(key).limit(needed).as(`p${i}`)).selectAll())
  const datas = await db
    .selectFrom(union(cut).as('u'))
    .selectAll()
    .orderBy('approve_time')
    .orderBy(key)
    .limit(pageSize)
    .offset((pageIndex - 1) * pageSize)
    .execute()
  return { datas, totalCount: Number(counted?.n ?? 0) }
}
