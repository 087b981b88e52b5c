import dayjs from 'dayjs'
import { call } from '../../api/call.js'
import type { Meta } from '../../api/meta.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { DocumentSection } from '../../../shared/metadata/document-model.js'
import type { Field } from '../../../shared/generated/entity.js'
import { declaredCalls, documentCalls } from '../../../shared/contracts/document-calls.js'

/**
 * How a new document continues another one, as its file declares: a date that follows the party's
 * previous document (`defaultAfter`: a check sheet starts the day after the party's last one ends), and
 * a document made from another (`madeFrom`: a settle sheet from its check sheet). Only existing calls
 * are made: the document's own list and candidates, the source's `get`.
 */

/** The add page's query parameter naming the source document (`madeFrom`). */
export const MADE_FROM_PARAM = 'madeFrom'

export type DefaultAfter = NonNullable<Field['defaultAfter']>

/** The header fields with a `defaultAfter` rule, by name. */
export const continuedDates = (header: EntityModel): { name: string; rule: DefaultAfter }[] =>
  header.fields.flatMap((f) => (f.defaultAfter ? [{ name: f.name, rule: f.defaultAfter }] : []))

const day = (value: unknown): string | undefined => {
  const text = typeof value === 'string' ? value.slice(0, 10) : ''
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : undefined
}

/**
 * The date a new document of `party` starts with under `rule`: the day after the latest `last` of the
 * party's documents of this kind (sorted by the server, first row only); none: the approve day of the
 * party's earliest line candidate when the rule says so (candidates come oldest first); else undefined.
 */
export async function continuedDate(header: EntityModel, rule: DefaultAfter, party: string): Promise<string | undefined> {
  const base = header.file.api!.base
  const previous = await call(
    documentCalls(base).query,
    { pageIndex: 1, pageSize: 1, [rule.party]: party, sortField: rule.last, sortOrder: 'desc' },
    { hideError: true },
  )
  const last = day(previous.datas[0]?.[rule.last])
  if (last) return dayjs(last).add(1, 'day').format('YYYY-MM-DD')
  const candidates = (header.file.document as DocumentSection | undefined)?.lines.pick?.candidates
  if (!rule.orFirstCandidate || !candidates) return undefined
  const first = await call(declaredCalls.candidates(candidates), { pageIndex: 1, pageSize: 1, [rule.party]: party }, { hideError: true })
  return day(first.datas[0]?.approveTime)
}

/** What an add page made from another document starts with: header values and maybe its first line. */
export interface MadeFrom {
  values: Record<string, unknown>
  line?: Record<string, unknown>
  /** The source gave no line (settled meanwhile, or held by another document). */
  noLine?: boolean
}

/**
 * Reads the source document `id` and answers what `header`'s `madeFrom` takes of it: the copied header
 * fields, and with `line` the source as this document's line candidates offer it (of the party, on the
 * source's approve day, so its amounts are the server's).
 */
export async function madeFrom(meta: Meta, header: EntityModel, id: string): Promise<MadeFrom | undefined> {
  const section = header.file.document as DocumentSection
  const rule = section.madeFrom
  const source = rule && meta.entityOrUndefined(rule.document)
  if (!rule || !source?.file.api) return undefined
  const record = await call(documentCalls(source.file.api.base).get, { id })
  const values = Object.fromEntries(rule.copy.filter((name) => record[name] !== undefined).map((name) => [name, record[name]]))
  const pick = section.lines.pick
  const candidates = pick?.candidates
  if (!rule.line || !pick || !candidates?.party) return { values }
  const approved = day(record.approveTime)
  const rows = approved
    ? await call(
        declaredCalls.candidates(candidates),
        { pageIndex: 1, pageSize: 100, [candidates.party]: values[candidates.party], startTime: approved, endTime: approved },
        { hideError: true },
      )
    : { datas: [] }
  const line = rows.datas.find((r) => String(r[pick.field]) === id)
  return line ? { values, line } : { values, noLine: true }
}
