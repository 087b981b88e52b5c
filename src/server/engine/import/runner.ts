import type { Db } from '../../db/dialect.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import { hasOperation } from '../../../shared/metadata/operation-keys.js'
import { invalid } from '../../platform/errors.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../services.js'
import type { Wire } from '../record-codec.js'
import type { ImportColumn } from './columns.js'
import { normaliseDate, normaliseDateTime, parseBoolean, parseEnum, parseRegion } from './cells.js'
import type { ImportRow } from './units.js'
import { mapRows, runUnits, type ImportSignal, type ImportSummary } from './units.js'
import { batchable, batchWriter, codeTaken, refAmbiguous, refMissing, type ImportAdapter, type RefLookup } from './batch.js'
import { TextIndex } from '../text-index.js'

/** Referenced records remembered by code during one import (a bound, not a need: categories, brands…). */
const MAX_KNOWN_REFS = 10_000

/** The spec's import task progress (000 §3): what `GET /component/import/task` answers. */
export interface ImportProgress {
  /** Percent of the rows handled so far. */
  process: number
  /** Percent of the rows written: provisional while running, 100 when committed, 0 when nothing was written. */
  successProcess: number
  /** `第N行：{message}` for every failing row (N is the row number in Excel), or a file-level message. */
  tipMsgs: string[]
  hasError: boolean
  finished: boolean
  /** On success `{total, created, modified}`. */
  data: unknown
}



/**
 * Imports the rows of one file EACH ROW ON ITS OWN (atomicity 'row', engine/import/kind.ts runUnits),
 * every row through the entity store (validation with the form's messages, uniqueness, references,
 * hooks), in transactions of BATCH_ROWS rows with a savepoint per row:
 * - a row that fails is rolled back to its savepoint and reported as `第N行：…`; the other rows are
 *   written. The spec (000 §5 Import rules) gives master data no all-or-nothing rule, and issue 14 asks
 *   for independent rows; a file of a million rows then needs no single huge transaction either;
 * - rows are matched by `code`: an existing code modifies that record, otherwise a record is created;
 *   immutable fields (e.g. a supplier's settle type) are only used to create; a code twice in the file
 *   fails the later row (only the codes are kept, not the rows);
 * - a reference cell names the referenced record by its code, looked up inside the transaction, so a
 *   row may refer to a record created by an earlier row (a category and its parent in one file).
 * Where the entity allows it (import-batch.ts batchable) the rows of a batch are written set-based by
 * import-batch.ts with the same checks, messages and results; otherwise each row goes through the store.
 * `report` receives the progress while running (throttled by the task store).
 */
export async function runImport(
  services: Services,
  ctx: RequestContext,
  db: Db,
  entity: EntityModel,
  columns: ImportColumn[],
  rows: AsyncIterable<ImportRow> | Iterable<ImportRow>,
  total: number,
  report: (p: Pick<ImportProgress, 'process' | 'successProcess'>) => void,
  adapter?: ImportAdapter,
  signal?: ImportSignal,
): Promise<ImportSummary> {
  const { store, codec, registry } = services
  const enums = registry.enums
  const codeField = entity.fields.find((f) => f.name === 'code' && f.type === 'string')
  const byName = new Map(columns.map((c) => [c.field.name, c]))
  const canModify = hasOperation(entity, 'modify')
  // The same code on two rows: the later one fails (it would silently overwrite the earlier one).
  // Every code of the file is remembered: off the heap (text-index.ts), a million of them included.
  const firstLine = new TextIndex()
  const duplicateOf = (row: ImportRow): string | undefined => {
    const code = codeField ? row.cells.get(codeField.name) : undefined
    if (!code) return undefined
    const first = firstLine.get(code)
    if (first !== undefined && first !== row.line) return `${codeField!.label}与第${first}行重复`
    firstLine.set(code, row.line)
    return undefined
  }

  // Codes of other entities found once stay found for this import (a million rows name the same few
  // categories); the store still checks each id when it writes. Self references are looked up each time,
  // since the file itself creates such records.
  const knownRefs = new Map<string, string>()
  const refCacheKey = (column: ImportColumn, text: string) => `${column.target!.name}\u0000${text}`
  async function lookupRef(trx: Db, column: ImportColumn, text: string): Promise<string> {
    const { target, key, field } = column
    if (!target || !key) return text
    const known = target === entity ? undefined : knownRefs.get(refCacheKey(column, text))
    if (known) return known
    // Among the caller's rows only: a code outside their data permission is as missing as an unknown one.
    const found = await store.visibleRows(trx, ctx, target, [codec.toFilter(key, text)], key.column)
    if (!found.length) throw refMissing(field, text)
    if (found.length > 1) throw refAmbiguous(field, text)
    rememberRef(column, text, String(found[0].id))
    return String(found[0].id)
  }
  function rememberRef(column: ImportColumn, text: string, id: string) {
    if (column.target !== entity && knownRefs.size < MAX_KNOWN_REFS) knownRefs.set(refCacheKey(column, text), id)
  }

  /** The wire value of one cell that is not a reference; undefined leaves the field out of the write. */
  function cellValue(column: ImportColumn, text: string, mode: 'create' | 'modify'): unknown {
    const f = column.field
    if (!text) {
      // Blank: a create takes the default; a modify keeps a field that has one and clears the others.
      if (mode === 'create' || f.default !== undefined) return undefined
      return null
    }
    switch (column.kind) {
      case 'enum': {
        const code = parseEnum(text, f.enum as string, enums)
        if (code === undefined)
          throw invalid(`${f.label}只能填写：${enums.items(f.enum as string).map((i) => i['zh-CN']).join('、')}`, f.name)
        return code
      }
      case 'boolean': {
        const b = parseBoolean(text, f, enums)
        if (b === undefined) throw invalid(`${f.label}只能填写：${f.enum ? enums.items(f.enum).map((i) => i['zh-CN']).join('、') : '是、否'}`, f.name)
        return b
      }
      case 'region': {
        const code = parseRegion(text)
        if (!code) throw invalid(`${f.label}不存在：${text}，请按“省/市/区”填写`, f.name)
        return code
      }
      case 'date':
      case 'datetime': {
        // The store checks only the shape; an impossible date (2024-02-30) would reach the database.
        const value = column.kind === 'date' ? normaliseDate(text) : normaliseDateTime(text)
        if (!value) throw invalid(`${f.label}格式不正确`, f.name)
        return value
      }
      default:
        // Text and numbers: the store checks them with the form's messages.
        return text
    }
  }

  /** A row's cells as the store's body, in column order: the first failing cell's message is the row's. */
  async function rowBody(row: ImportRow, mode: 'create' | 'modify', ref: RefLookup): Promise<Wire> {
    const body: Wire = {}
    for (const [name, text] of row.cells) {
      const column = byName.get(name)!
      if (mode === 'modify' && column.field.immutable) continue
      const value = column.kind === 'ref' && text ? await ref(column, text) : cellValue(column, text, mode)
      if (value !== undefined) body[name] = value
    }
    return body
  }

  /** One row through the store, its code already checked against the rest of the file. */
  async function writeRow(trx: Db, row: ImportRow): Promise<'create' | 'modify'> {
    let existingId: string | undefined
    const code = codeField ? row.cells.get(codeField.name) : undefined
    if (codeField && code) {
      const hit = await trx.selectFrom(entity.table).select('id').where(codeField.column, '=', code).executeTakeFirst()
      existingId = hit ? String(hit.id) : undefined
      if (existingId && !canModify) throw codeTaken(codeField)
    }
    const mode = existingId ? 'modify' : 'create'
    const body = await rowBody(row, mode, (column, text) => lookupRef(trx, column, text))
    if (existingId) body.id = existingId
    await adapter?.prepare?.(body, mode, { entity, row })
    // The import logs itself once with its counts (runUnits), not once per row.
    if (mode === 'modify') await store.modify(trx, ctx, entity, body, { logged: false })
    else await store.create(trx, ctx, entity, body, { logged: false })
    return mode
  }

  async function importRow(trx: Db, row: ImportRow): Promise<'create' | 'modify'> {
    const dup = duplicateOf(row)
    if (dup) throw invalid(dup)
    return writeRow(trx, row)
  }

  const setBased = batchable(services, entity)
    ? batchWriter(services, ctx, {
        entity,
        codeField,
        canModify,
        adapter,
        refColumns: columns.filter((c) => c.kind === 'ref' && c.target && c.key),
        duplicateOf,
        rowBody,
        knownRef: (column, text) => (column.target === entity ? undefined : knownRefs.get(refCacheKey(column, text))),
        rememberRef,
        writeRow,
      })
    : undefined

  return runUnits({
    ctx,
    db,
    opLogDb: entity.scope === 'tenant' ? undefined : ctx.db,
    label: entity.label,
    atomicity: 'row',
    total,
    units: Symbol.asyncIterator in rows ? mapRows(rows as AsyncIterable<ImportRow>, (r) => [r]) : [...(rows as Iterable<ImportRow>)].map((r) => [r]),
    write: (trx, unit) => importRow(trx, unit[0]),
    writeBatch: setBased,
    report,
    signal,
  })
}
