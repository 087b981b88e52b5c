import { sql } from 'kysely'
import type { Db } from '../db/dialect.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { hasOperation } from '../../shared/metadata/operation-keys.js'
import { BizError, invalid } from '../platform/errors.js'
import { inTransaction } from '../platform/db-tx.js'
import { writeOpLog, OpLogType } from '../platform/op-log.js'
import type { RequestContext } from '../platform/request-context.js'
import type { Services } from '../services.js'
import type { Wire } from './record-codec.js'
import type { ImportColumn } from './import-columns.js'
import { normaliseDate, normaliseDateTime, parseBoolean, parseEnum, parseRegion } from './import-cells.js'
import type { ImportRow } from './import-workbook.js'

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
 * Per-entity adjustments an entity file cannot say, applied to each row's body just before the store
 * writes it (e.g. a SPU needs its one SKU line). Registered by modules.
 */
export interface ImportAdapter {
  prepare?(body: Wire, mode: 'create' | 'modify', e: { entity: EntityModel; row: ImportRow }): void | Promise<void>
}

export interface ImportSummary {
  total: number
  created: number
  modified: number
  /** Empty when everything was written. */
  errors: string[]
}

/** Rows between two pauses that let the event loop serve other requests. */
const YIELD_EVERY = 25

const lineMessage = (line: number, message: string) => `第${line}行：${message}`

/** Thrown inside the transaction to roll it back when a row failed. */
class RolledBack extends Error {}

/**
 * Imports the rows of one file ALL OR NOTHING, every row through the entity store (validation with the
 * form's messages, uniqueness, references, hooks, op log), in one transaction:
 * - each row runs in a savepoint; a row that fails is rolled back to it and reported as `第N行：…`,
 *   and the next rows are still checked (so the user sees every failing row at once);
 * - rows are matched by `code`: an existing code modifies that record, otherwise a record is created;
 *   immutable fields (e.g. a supplier's settle type) are only used to create; a code twice in the file
 *   fails the later row;
 * - a reference cell names the referenced record by its code, looked up inside the transaction, so a
 *   row may refer to a record created by an earlier row (a category and its parent in one file);
 * - when any row failed the whole transaction is rolled back: nothing is written, no op log.
 * `report` receives the progress while running (throttle it there).
 */
export async function runImport(
  services: Services,
  ctx: RequestContext,
  db: Db,
  entity: EntityModel,
  columns: ImportColumn[],
  rows: ImportRow[],
  report: (p: Pick<ImportProgress, 'process' | 'successProcess'>) => void,
  adapter?: ImportAdapter,
): Promise<ImportSummary> {
  const { store, codec, registry } = services
  const enums = registry.enums
  const codeField = entity.fields.find((f) => f.name === 'code' && f.type === 'string')
  const byName = new Map(columns.map((c) => [c.field.name, c]))
  const canModify = hasOperation(entity, 'modify')
  const errors: string[] = []
  const total = rows.length
  let created = 0
  let modified = 0
  let done = 0
  const tick = (passed: number) =>
    report({ process: Math.floor((done * 100) / total), successProcess: Math.floor((passed * 100) / total) })

  // The same code on two rows: the later one fails (it would silently overwrite the earlier one).
  const firstLine = new Map<string, number>()
  const duplicate = new Map<ImportRow, string>()
  if (codeField) {
    for (const row of rows) {
      const code = row.cells.get(codeField.name)
      if (!code) continue
      const first = firstLine.get(code)
      if (first !== undefined) duplicate.set(row, `${codeField.label}与第${first}行重复`)
      else firstLine.set(code, row.line)
    }
  }

  async function refId(trx: Db, column: ImportColumn, text: string): Promise<string> {
    const { target, key, field } = column
    if (!target || !key) return text
    const found = await trx
      .selectFrom(target.table)
      .select('id')
      .where(key.column, '=', codec.toFilter(key, text))
      .limit(2)
      .execute()
    if (!found.length) throw invalid(`${field.label}不存在：${text}`, field.name)
    if (found.length > 1) throw invalid(`${field.label}不唯一：${text}`, field.name)
    return String(found[0].id)
  }

  /** The wire value of one cell; undefined leaves the field out of the write. */
  async function cellValue(trx: Db, column: ImportColumn, text: string, mode: 'create' | 'modify'): Promise<unknown> {
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
      case 'ref':
        return refId(trx, column, text)
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

  async function importRow(trx: Db, row: ImportRow): Promise<'create' | 'modify'> {
    const dup = duplicate.get(row)
    if (dup) throw invalid(dup)
    let existingId: string | undefined
    const code = codeField ? row.cells.get(codeField.name) : undefined
    if (codeField && code) {
      const hit = await trx.selectFrom(entity.table).select('id').where(codeField.column, '=', code).executeTakeFirst()
      existingId = hit ? String(hit.id) : undefined
      if (existingId && !canModify) throw invalid(codeField.uniqueMessage ?? `${codeField.label}重复，请重新输入`, codeField.name)
    }
    const mode = existingId ? 'modify' : 'create'
    const body: Wire = {}
    for (const [name, text] of row.cells) {
      const column = byName.get(name)!
      if (mode === 'modify' && column.field.immutable) continue
      const value = await cellValue(trx, column, text, mode)
      if (value !== undefined) body[name] = value
    }
    if (existingId) body.id = existingId
    await adapter?.prepare?.(body, mode, { entity, row })
    if (mode === 'modify') await store.modify(trx, ctx, entity, body)
    else await store.create(trx, ctx, entity, body)
    return mode
  }

  try {
    await inTransaction(db, async (trx) => {
      for (const row of rows) {
        await sql`savepoint import_row`.execute(trx)
        try {
          const mode = await importRow(trx, row)
          await sql`release savepoint import_row`.execute(trx)
          if (mode === 'create') created++
          else modified++
        } catch (error) {
          await sql`rollback to savepoint import_row`.execute(trx)
          await sql`release savepoint import_row`.execute(trx)
          if (!(error instanceof BizError)) throw error
          errors.push(lineMessage(row.line, error.message))
        }
        done++
        tick(errors.length ? 0 : created + modified)
        // better-sqlite3 answers synchronously: without a pause the whole file would run in one turn of
        // the event loop, and no other request (nor the progress poll) would be served meanwhile.
        if (done % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve))
      }
      if (errors.length) throw new RolledBack()
      await writeOpLog(entity.scope === 'tenant' ? trx : ctx.db, ctx, `导入${entity.label}`, OpLogType.OTHER, { total, created, modified })
    })
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error
    return { total, created: 0, modified: 0, errors }
  }
  return { total, created, modified, errors }
}
