import { CompiledQuery, sql } from 'kysely'
import type { Db } from '../../db/dialect.js'
import type { EntityModel, FieldModel } from '../../../shared/metadata/entity-model.js'
import { isBlank, writableFields } from '../../../shared/metadata/validate-record.js'
import { auditColumns } from '../../platform/audit-columns.js'
import { BizError, invalid } from '../../platform/errors.js'
import { newId } from '../../platform/ids.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../services.js'
import type { ImportColumn } from './columns.js'
import type { RowOutcome } from './units.js'
import type { ImportRow } from './units.js'
import type { Row, Wire } from '../record-codec.js'
import { takenMessage } from '../unique-message.js'
import { leafOnly, notLeaf } from '../leaf-only.js'

/**
 * Per-entity adjustments an entity file cannot say, applied to each row's body just before the store
 * writes it (e.g. a SPU needs its one SKU line). Registered by modules.
 */
export interface ImportAdapter {
  prepare?(body: Wire, mode: 'create' | 'modify', e: { entity: EntityModel; row: ImportRow }): void | Promise<void>
}

/**
 * The set-based writer of a master-data import (issue 14: a million rows in a minute). A batch of rows
 * gets the same checks and messages as the row-by-row path (runner.ts through the entity store),
 * but each check is one query for the whole batch instead of one per row:
 * - existing codes: one `IN` query; a row whose code exists is a modify and goes through the store
 *   as before, at its place in the file (the creates before it are written first);
 * - the creates between two modifies form a segment: references by code are found with one `IN` query
 *   per referenced entity (and the run's cache), each row is validated in JS (the store's own
 *   prepareRecord), uniqueness is one `IN` query per unique field plus the rows of the segment taken
 *   so far, the referenced ids one `IN` query per reference field, the entity's row-local hooks run
 *   per row, and the rows that passed are written with multi-row INSERTs;
 * - a row may name a record created by an earlier row of the same segment (a category and its parent):
 *   rows are decided in file order, a row that named an earlier row is prepared again once it is
 *   known whether that row was written, so the message is the one the earlier row's fate gives;
 * - when the database refuses the INSERT (a rule no check foresaw) or a hook after it refuses a row,
 *   the segment is rolled back to its savepoint and written row by row through the store, so messages
 *   stay per row and the result is the row-by-row path's.
 */

/** Bound parameters of one statement: SQLite's limit (SQLITE_MAX_VARIABLE_NUMBER) and PostgreSQL's. */
const MAX_PARAMETERS = { sqlite: 32_766, postgres: 65_535 } as const
/** Rows per INSERT statement: the largest that fits first, the rest in smaller fixed sizes (1 ends any count). */
const STATEMENT_ROWS = [256, 64, 16, 4, 1]
/** Values of one `IN` list: well within both limits, and a batch has at most BATCH_ROWS anyway. */
const IN_CHUNK = 1000

export type RefLookup = (column: ImportColumn, text: string) => string | Promise<string>

export const refMissing = (field: FieldModel, text: string) => invalid(`${field.label}不存在：${text}`, field.name)
export const refAmbiguous = (field: FieldModel, text: string) => invalid(`${field.label}不唯一：${text}`, field.name)
export const codeTaken = (codeField: FieldModel) => invalid(takenMessage(codeField), codeField.name)

/** What runner.ts shares with the set-based writer: its row reading and its row-by-row path. */
export interface RowImporter {
  entity: EntityModel
  codeField?: FieldModel
  canModify: boolean
  adapter?: ImportAdapter
  /** Import columns naming a record of an entity by its key (code). */
  refColumns: ImportColumn[]
  /** The message of a code already on an earlier row of the file (the first occurrence is remembered). */
  duplicateOf(row: ImportRow): string | undefined
  rowBody(row: ImportRow, mode: 'create' | 'modify', ref: RefLookup): Promise<Wire>
  /** Another entity's record found earlier in this import. */
  knownRef(column: ImportColumn, text: string): string | undefined
  rememberRef(column: ImportColumn, text: string, id: string): void
  /** One row through the store (its code already checked against the file). */
  writeRow(trx: Db, row: ImportRow): Promise<'create' | 'modify'>
}

/**
 * Whether an entity's import may be set-based: its save hooks (if any) are row-local, it has no
 * link tables (multiple refs) and it is a tenant's (platform records may be given their id).
 */
export function batchable(services: Services, entity: EntityModel): boolean {
  if (entity.scope === 'platform') return false
  if (entity.fields.some((f) => f.type === 'ref' && f.multiple)) return false
  return services.hooks.of(entity.name).every((h) => h.rowLocal || (!h.beforeSave && !h.afterSave))
}

/** A row's savepoint around the store's write, as runUnits does for the row-by-row path. */
async function perRow(trx: Db, row: ImportRow, write: () => Promise<'create' | 'modify'>): Promise<RowOutcome> {
  await sql`savepoint import_unit`.execute(trx)
  try {
    const mode = await write()
    await sql`release savepoint import_unit`.execute(trx)
    return { line: row.line, mode }
  } catch (error) {
    await sql`rollback to savepoint import_unit`.execute(trx)
    await sql`release savepoint import_unit`.execute(trx)
    if (!(error instanceof BizError)) throw error
    return { line: row.line, error }
  }
}

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size))
  return out
}

/** A create of a segment once validated: its values, the record as stored, and its new id. */
interface Prepared {
  values: Wire
  merged: Wire
  id: string
}

/** One preparation of a create: its values or its refusal, and whether it named a record by a code an earlier row of the segment creates. */
type Attempt = { prepared?: Prepared; error?: BizError; namedSegment: boolean }

/** The set-based writer of one import run: `(trx, rows)` to each row's outcome, in row order. */
export function batchWriter(services: Services, ctx: RequestContext, imp: RowImporter) {
  const { store, codec, registry } = services
  const { entity, codeField } = imp
  const hooks = services.hooks.of(entity.name)
  const uniqueFields = entity.fields.filter((f) => f.uniqueMessage)
  const uniqueRules = (entity.file.uniqueTogether ?? []).map((rule) => ({
    message: rule.message,
    fields: rule.fields.map((n) => entity.byName.get(n) as FieldModel),
  }))
  const refFields = entity.fields
    .filter((f) => f.type === 'ref' && !f.multiple)
    .map((f) => ({ field: f, target: registry.get(f.ref as string) }))
    .filter((r) => r.target.scope === entity.scope)
  const dictionaryFields = entity.fields.filter((f) => f.dictionary)
  /** The choices of each dictionary field, read once per import run. */
  const choices = new Map<FieldModel, Set<string>>()
  const maxParameters = MAX_PARAMETERS[store.kind]
  /** INSERT texts by row count and column list. */
  const insertTexts = new Map<string, string>()
  const writable = writableFields(entity)
  /** One text per stored value: how the database compares (text to text, numbers by value). */
  const stored = (f: FieldModel, value: unknown) => String(codec.toColumn(f, value))
  const tupleKey = (fields: FieldModel[], of: (f: FieldModel) => unknown) => JSON.stringify(fields.map((f) => String(of(f))))

  /** Rows of `table` whose `column` is one of `values`: one query per IN_CHUNK values. */
  async function whereIn(trx: Db, table: string, column: string, values: unknown[], select: string[]): Promise<Row[]> {
    const out: Row[] = []
    for (const part of chunks([...new Set(values)], IN_CHUNK))
      out.push(...((await trx.selectFrom(table).select(select).where(column, 'in', part).execute()) as Row[]))
    return out
  }

  /** Existing records by code (codes are compared as the row-by-row path does: the cell's text). */
  async function existingCodes(trx: Db, rows: ImportRow[]): Promise<Set<string>> {
    if (!codeField) return new Set()
    const codes = rows.map((r) => r.cells.get(codeField.name)).filter((c): c is string => Boolean(c))
    const found = await whereIn(trx, entity.table, codeField.column, codes, [`${codeField.column} as k`])
    return new Set(found.map((r) => String(r.k)))
  }

  return async function writeBatch(trx: Db, rows: ImportRow[]): Promise<RowOutcome[]> {
    const outcomes: RowOutcome[] = new Array(rows.length)
    const existing = await existingCodes(trx, rows)
    let segment: number[] = []
    const flush = async () => {
      if (segment.length) await createSegment(trx, rows, segment, outcomes)
      segment = []
    }
    for (const [i, row] of rows.entries()) {
      const dup = imp.duplicateOf(row)
      if (dup) {
        outcomes[i] = { line: row.line, error: invalid(dup) }
        continue
      }
      const code = codeField ? row.cells.get(codeField.name) : undefined
      if (!code || !existing.has(code)) {
        segment.push(i)
        continue
      }
      if (!imp.canModify) {
        outcomes[i] = { line: row.line, error: codeTaken(codeField!) }
        continue
      }
      // A modify sees every row before it written, as in the row-by-row path.
      await flush()
      outcomes[i] = await perRow(trx, row, () => imp.writeRow(trx, row))
    }
    await flush()
    return outcomes
  }

  /** The creates `at` (indexes into rows, in file order): decided, written, their outcomes set. */
  async function createSegment(trx: Db, rows: ImportRow[], at: number[], outcomes: RowOutcome[]): Promise<void> {
    // References by code: the records of other entities not yet known to the run, and of the entity
    // itself (the file creates such records, so they are looked up anew).
    const refHits = new Map<ImportColumn, Map<string, string[]>>()
    for (const column of imp.refColumns) {
      const { target, key } = column as Required<Pick<ImportColumn, 'target' | 'key'>> & ImportColumn
      const texts = at
        .map((i) => rows[i].cells.get(column.field.name))
        .filter((t): t is string => Boolean(t) && (target === entity || !imp.knownRef(column, t!)))
      const hits = new Map<string, string[]>()
      // Among the caller's rows only: a code outside their data permission is as missing as an unknown one.
      const found = await store.visibleRows(
        trx,
        ctx,
        target,
        texts.map((t) => codec.toFilter(key, t)),
        key.column,
      )
      for (const r of found) {
        const k = String(r.key)
        const ids = hits.get(k)
        if (ids) ids.push(String(r.id))
        else hits.set(k, [String(r.id)])
      }
      refHits.set(column, hits)
    }

    const prepared = new Map<number, Prepared>()
    const refusal = new Map<number, BizError>()
    const namedSegment = new Set<number>()
    const written = new Set<number>()
    const writtenIds = new Set<string>()
    const ids = new Map<number, string>()
    // Rows of the segment by the value of each key field a self reference names them by.
    const selfKeys = [...new Set(imp.refColumns.filter((c) => c.target === entity).map((c) => c.key!))]
    const byKey = new Map<FieldModel, Map<string, number[]>>(selfKeys.map((k) => [k, new Map()]))
    const index = (i: number, p: Prepared) => {
      for (const key of selfKeys) {
        if (isBlank(p.values[key.name])) continue
        const k = stored(key, p.values[key.name])
        const rowsOf = byKey.get(key)!.get(k)
        if (rowsOf) rowsOf.push(i)
        else byKey.get(key)!.set(k, [i])
      }
    }

    /** Prepares the row at `i`; a record created by an earlier row of the segment counts if `counts(j)` says so. */
    async function prepare(i: number, counts: (j: number) => boolean): Promise<Attempt> {
      const row = rows[i]
      let named = false
      const lookup: RefLookup = (column, text) => {
        const { target, key, field } = column
        if (!target || !key) return text
        const known = imp.knownRef(column, text)
        if (known) return known
        const wanted = String(codec.toFilter(key, text))
        const found = [...(refHits.get(column)?.get(wanted) ?? [])]
        if (target === entity) {
          for (const j of byKey.get(key)?.get(wanted) ?? []) {
            if (j >= i) break
            named = true
            if (counts(j)) found.push(prepared.get(j)!.id)
          }
        }
        if (!found.length) throw refMissing(field, text)
        if (found.length > 1) throw refAmbiguous(field, text)
        imp.rememberRef(column, text, found[0])
        return found[0]
      }
      try {
        const body = await imp.rowBody(row, 'create', lookup)
        await imp.adapter?.prepare?.(body, 'create', { entity, row })
        const { values, merged } = await store.prepareRecord(entity, body, 'create')
        if (!ids.has(i)) ids.set(i, newId())
        return { prepared: { values, merged, id: ids.get(i)! }, namedSegment: named }
      } catch (error) {
        if (!(error instanceof BizError)) throw error
        return { error, namedSegment: named }
      }
    }

    // Every row on its own, counting all earlier rows of the segment that validated.
    for (const i of at) {
      const attempt = await prepare(i, (j) => prepared.has(j))
      if (attempt.namedSegment) namedSegment.add(i)
      if (attempt.prepared) {
        prepared.set(i, attempt.prepared)
        index(i, attempt.prepared)
      } else refusal.set(i, attempt.error!)
    }

    // What the database already holds of the unique values and the referenced ids.
    const candidates = [...prepared.values()]
    const taken = new Map<FieldModel, Set<string>>()
    const asked = new Map<FieldModel, Set<string>>()
    for (const f of uniqueFields) {
      const values = candidates.filter((p) => !isBlank(p.merged[f.name])).map((p) => codec.toColumn(f, p.merged[f.name]))
      const found = await whereIn(trx, entity.table, f.column, values, [`${f.column} as k`])
      taken.set(f, new Set(found.map((r) => String(r.k))))
      asked.set(f, new Set(values.map(String)))
    }
    const takenTogether = new Map<(typeof uniqueRules)[number], Set<string>>()
    for (const rule of uniqueRules) {
      const first = rule.fields[0]
      const values = candidates.filter((p) => rule.fields.every((f) => !isBlank(p.merged[f.name]))).map((p) => codec.toColumn(first, p.merged[first.name]))
      const found = await whereIn(trx, entity.table, first.column, values, rule.fields.map((f) => f.column))
      takenTogether.set(rule, new Set(found.map((r) => tupleKey(rule.fields, (f) => r[f.column]))))
    }
    const segmentIds = new Set(candidates.map((p) => p.id))
    const existingRefs = new Map<string, Set<string>>()
    /** Of the rows a leaf-only field names, those with children. */
    const notLeaves = new Map<FieldModel, Set<string>>()
    for (const { field, target } of refFields) {
      const ids = candidates.map((p) => p.values[field.name]).filter((id) => !isBlank(id) && !segmentIds.has(String(id)))
      const found = await store.visibleRows(trx, ctx, target, ids)
      existingRefs.set(target.name, new Set([...(existingRefs.get(target.name) ?? []), ...found.map((r) => String(r.id))]))
      if (leafOnly(field, target)) notLeaves.set(field, await store.parentsAmong(trx, target, found.map((r) => r.id)))
    }

    /** A value the first queries did not cover (a row prepared again): asked on its own. */
    async function inDatabase(table: string, column: string, value: unknown): Promise<boolean> {
      return Boolean(await trx.selectFrom(table).select('id').where(column, '=', value).executeTakeFirst())
    }

    // Rows in file order, each seeing the rows before it that passed (as written rows in the row-by-row path).
    const claimed = new Map<unknown, Set<string>>()
    const claim = (what: unknown, key: string) => claimed.set(what, (claimed.get(what) ?? new Set()).add(key))
    const isClaimed = (what: unknown, key: string) => claimed.get(what)?.has(key) ?? false
    for (const i of at) {
      const again = namedSegment.has(i)
      if (again) {
        // Its references to rows of the segment are settled now: only rows that passed count.
        const attempt = await prepare(i, (j) => written.has(j))
        prepared.delete(i)
        refusal.delete(i)
        if (attempt.prepared) prepared.set(i, attempt.prepared)
        else refusal.set(i, attempt.error!)
      }
      if (refusal.has(i)) continue
      try {
        const p = prepared.get(i)!
        for (const f of dictionaryFields) {
          if (isBlank(p.values[f.name])) continue
          if (!choices.has(f)) choices.set(f, await store.dictionaryChoices(trx, f.dictionary!))
          if (!choices.get(f)!.has(String(p.values[f.name]).trim())) throw invalid(`${f.label}取值不正确`, f.name)
        }
        for (const f of uniqueFields) {
          if (isBlank(p.merged[f.name])) continue
          const value = codec.toColumn(f, p.merged[f.name])
          const key = String(value)
          const inDb = asked.get(f)!.has(key) ? taken.get(f)!.has(key) : await inDatabase(entity.table, f.column, value)
          if (inDb || isClaimed(f, key)) throw invalid(takenMessage(f), f.name)
        }
        for (const rule of uniqueRules) {
          if (rule.fields.some((f) => isBlank(p.merged[f.name]))) continue
          const key = tupleKey(rule.fields, (f) => codec.toColumn(f, p.merged[f.name]))
          let inDb = takenTogether.get(rule)!.has(key)
          if (!inDb && again) {
            let q = trx.selectFrom(entity.table).select('id')
            for (const f of rule.fields) q = q.where(f.column, '=', codec.toColumn(f, p.merged[f.name]))
            inDb = Boolean(await q.executeTakeFirst())
          }
          if (inDb || isClaimed(rule, key)) throw invalid(rule.message, rule.fields[rule.fields.length - 1].name)
        }
        for (const { field, target } of refFields) {
          const id = p.values[field.name]
          if (isBlank(id)) continue
          const ok =
            (target === entity && writtenIds.has(String(id))) ||
            existingRefs.get(target.name)!.has(String(id)) ||
            (again && !segmentIds.has(String(id)) && (await store.visibleRows(trx, ctx, target, [id])).length > 0)
          if (!ok) throw invalid(`${field.label}不存在`, field.name)
          if (leafOnly(field, target) && (notLeaves.get(field)?.has(String(id)) ?? (await store.parentsAmong(trx, target, [id])).size > 0)) throw notLeaf(field)
        }
        for (const h of hooks) await h.beforeSave?.({ trx, ctx, entity, mode: 'create', values: p.values })
        for (const f of uniqueFields) if (!isBlank(p.merged[f.name])) claim(f, stored(f, p.merged[f.name]))
        for (const rule of uniqueRules)
          if (rule.fields.every((f) => !isBlank(p.merged[f.name]))) claim(rule, tupleKey(rule.fields, (f) => codec.toColumn(f, p.merged[f.name])))
        written.add(i)
        writtenIds.add(p.id)
      } catch (error) {
        if (!(error instanceof BizError)) throw error
        refusal.set(i, error)
      }
    }

    await sql`savepoint import_batch`.execute(trx)
    try {
      const audit = auditColumns(ctx)
      await insertRows(
        trx,
        at.filter((i) => written.has(i)).map((i) => store.newRow(entity, prepared.get(i)!.values, prepared.get(i)!.id, audit, writable)),
      )
      // A created row outside the caller's rows: the segment goes row by row, where the store refuses that row.
      await store.requireWritten(trx, ctx, entity, at.filter((i) => written.has(i)).map((i) => prepared.get(i)!.id))
      for (const i of at) {
        if (!written.has(i)) continue
        const { values, id } = prepared.get(i)!
        for (const h of hooks) await h.afterSave?.({ trx, ctx, entity, mode: 'create', values, id })
      }
      await sql`release savepoint import_batch`.execute(trx)
    } catch {
      // What the checks could not foresee: the segment again, row by row through the store.
      await sql`rollback to savepoint import_batch`.execute(trx)
      await sql`release savepoint import_batch`.execute(trx)
      for (const i of at) outcomes[i] = await perRow(trx, rows[i], () => imp.writeRow(trx, rows[i]))
      return
    }
    for (const i of at) outcomes[i] = refusal.has(i) ? { line: rows[i].line, error: refusal.get(i)! } : { line: rows[i].line, mode: 'create' }
  }

  /**
   * Multi-row INSERTs: rows with the same columns together, in statements of a few fixed sizes within
   * the parameter limit. Fixed sizes keep the distinct statement texts per shape at a handful: SQLite's
   * statement cache keeps each prepared text, and one per row count would fill it with large programs.
   * The text of each shape and size is compiled once per run and sent again with each batch's values
   * (compiling a 256-row INSERT through the query builder cost more than SQLite's work of running it).
   */
  async function insertRows(trx: Db, list: Row[]): Promise<void> {
    const shapes = new Map<string, { columns: string[]; rows: Row[] }>()
    for (const row of list) {
      const columns = Object.keys(row)
      const shape = columns.join(',')
      const same = shapes.get(shape)
      if (same) same.rows.push(row)
      else shapes.set(shape, { columns, rows: [row] })
    }
    for (const [shape, { columns, rows }] of shapes) {
      const fit = Math.max(1, Math.floor(maxParameters / columns.length))
      let at = 0
      for (const size of STATEMENT_ROWS.map((n) => Math.min(n, fit))) {
        if (rows.length - at < size) continue
        const text = insertText(trx, shape, columns, size)
        for (; rows.length - at >= size; at += size) {
          const params: unknown[] = new Array(size * columns.length)
          let p = 0
          for (let r = at; r < at + size; r++) {
            const row = rows[r]
            for (const c of columns) params[p++] = row[c]
          }
          await trx.executeQuery(CompiledQuery.raw(text, params))
        }
      }
    }
  }

  /** The INSERT text of `size` rows of `columns`, compiled once by the query builder (its plugins included). */
  function insertText(trx: Db, shape: string, columns: string[], size: number): string {
    const key = `${size}:${shape}`
    let text = insertTexts.get(key)
    if (text) return text
    const row = Object.fromEntries(columns.map((c) => [c, '']))
    const compiled = trx.insertInto(entity.table).values(Array.from({ length: size }, () => row)).compile()
    // The parameters must be the rows' values in row and column order, as insertRows binds them.
    if (compiled.parameters.length !== size * columns.length) throw new Error(`import: unexpected INSERT shape for ${entity.table}`)
    text = compiled.sql
    insertTexts.set(key, text)
    return text
  }
}
