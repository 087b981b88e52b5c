import type { AliasableExpression, Expression, SqlBool } from 'kysely'
import type { Db } from '../db/dialect.js'
import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'
import { checkField, isBlank, validateRecord, writableFields } from '../../shared/metadata/validate-record.js'
import { isNoNumber } from '../../shared/metadata/decimal-grammar.js'
import { documentSums, documentTotals, isGiftLine } from '../../shared/metadata/document-totals.js'
import { DocumentStatus, hasApproval, lineSubjectOf, LINES_IN, LINES_OUT, maxLinesOf } from '../../shared/metadata/document-model.js'
import { BizError, invalid, notFound } from '../platform/errors.js'
import { auditColumns, updateColumns } from '../platform/audit-columns.js'
import { now } from '../platform/clock.js'
import { newId } from '../platform/ids.js'
import type { RequestContext } from '../platform/request-context.js'
import { opLogInsert, OpLogType, writeOpLog } from '../platform/op-log.js'
import { assertNotOwnApproval } from '../platform/separation-of-duties.js'
import type { EntityStore } from './entity-store.js'
import type { Wire } from './record-codec.js'
import { nextDocumentNumber } from './document-number.js'
import { addTimeline, removeTimeline, timelineInsert, TimelineType } from './document-timeline.js'
import { writeTogether, writeTogetherThenRead, type PendingWrite } from '../db/write-together.js'
import { lockReservations, releaseReservations, reserveLines } from './document-reservations.js'
import { isPostgres } from '../db/exact-decimal.js'
import { attachProducts } from './line-products.js'
import type { DocumentModel } from './document-kind.js'
import { checkDiscounts, refuseAllZero, refuseBundles } from './line-rules.js'
import { announceApproval, type ApprovalEvent } from '../webhooks/approval-events.js'
import { WEBHOOK_EVENT } from '../../shared/generated/enum-codes.js'
import { addTodos, closeTodos, closeTodosDelete, menuPathOf, usersHolding } from '../platform/todos.js'

export interface DocumentEvent {
  trx: Db
  ctx: RequestContext
  doc: DocumentModel
  /** Header values (wire names); on approve the stored header. */
  header: Wire
  lines: Wire[]
  /** The stored header before this change (modify, delete, approve). */
  existing?: Wire
  /** The request body of a create or modify (for what lives beside the lines, e.g. agreed payments). */
  body?: Wire
  /** On approve, for hooks with `hasBreakdown`: whether the document has a breakdown of its lines. */
  hasBreakdown?: boolean
}

/**
 * Hand-written rules of one document kind (the file of that document under src/server/domain/<area>/,
 * listed in domain/documents/document-hooks.ts by the name its JSON gives in `document.hooks`), called by the engine
 * inside its transaction. Everything common — numbering, status guards, totals, reservations, stock and
 * settlement effects, timeline, op log — is the engine's.
 */
export interface DocumentHooks {
  /** Completes and checks a create/modify before validation (prices from a source line, config rules). */
  prepare?(e: DocumentEvent & { mode: 'create' | 'modify' }): Promise<void>
  /** After the header and lines are stored (line ids known). */
  saved?(e: DocumentEvent & { id: string }): Promise<void>
  /** Before the stock effect of approval; may replace `lines` (bundles exploded into components). */
  beforeApprove?(e: DocumentEvent & { id: string }): Promise<void>
  /**
   * Whether document `id` has a breakdown of its lines (bundles into their components), read with its
   * lines at approval (`e.hasBreakdown`), so a document without one costs no statement to find that out.
   */
  hasBreakdown?(db: Db, id: string): AliasableExpression<SqlBool>
  /** Side effects of approval after the engine's stock effect; may answer the status to keep instead of 3. */
  approve?(e: DocumentEvent & { id: string }): Promise<number | void>
  cancelApprove?(e: DocumentEvent & { id: string }): Promise<void>
  /** Before a refusal is stored (a source whose state forbids reviewing). */
  refuse?(e: DocumentEvent & { id: string }): Promise<void>
  /** Before delete only (not before modify): refuse deleting a document others still reference. */
  remove?(e: DocumentEvent & { id: string }): Promise<void>
  /** Before delete (and before a modify replaces the lines): undo what the stored document holds. */
  release?(e: DocumentEvent & { id: string }): Promise<void>
  /**
   * Locks (PostgreSQL `FOR UPDATE`), each table's rows in id order, what `lines` hold or pay (the check
   * sheets of settle sheet lines, the documents of check sheet lines). The engine calls it once, after the
   * documents' own rows and before any of it changes, with every line of the action: the stored and the
   * new lines of a modify, the lines of every document of a batch. Lines come as sent (unchecked values).
   */
  lockHeld?(e: { trx: Db; doc: DocumentModel; lines: Wire[] }): Promise<void>
  /** Extra properties of the detail answer (agreed payments, links). */
  decorate?(db: Db, ctx: RequestContext, doc: DocumentModel, answer: Wire): Promise<void>
}

/** The stock effect, supplied by the ledger (kept apart so the engine does not know costing). */
export type StockEffect = (e: DocumentEvent & { id: string }) => Promise<void>

/**
 * The settlement effect of a document whose file declares one (`document.settle`), supplied by the
 * settlement ledger (kept apart so the engine does not know settlement).
 */
export interface SettleEffect {
  /** Completes a new document after its hook's `prepare` (its initial settle status). */
  open(e: DocumentEvent): void
  /**
   * On approval: the ledger rows the document books, as writes the engine sends in the statement that sets
   * the approved status (it reads only the header, so the rows need no round trip of their own).
   */
  post(e: Pick<DocumentEvent, 'trx' | 'ctx' | 'doc' | 'header'> & { id: string }): PendingWrite[]
  /** On cancel approval, after the status went back; refuses (throws) what can no longer be taken back. */
  reverse(e: DocumentEvent & { id: string }): Promise<void>
}

/** Locks the stock rows the approval of `headers` with `lines` will post, in key order (a batch approval). */
export type StockLock = (trx: Db, doc: DocumentModel, headers: Wire[], lines: Wire[]) => Promise<void>

/** Bound values of one multi-row INSERT of lines (see insertLines). */
const BOUND_VALUES_PER_INSERT = 10_000

const NO_HOOKS: DocumentHooks = {}

const EDITABLE: number[] = [DocumentStatus.CREATED, DocumentStatus.APPROVE_REFUSE]

/** The generic lifecycle of every document (domain-rules §2.1), with guarded status changes. */
/** The business key of a document's approval todos. */
const approvalKey = (documentId: string) => `approve:${documentId}`

export class DocumentStore {
  constructor(
    private readonly store: EntityStore,
    /** The hooks of each document that names them, by document name (bound at start-up: engine/document-hooks.ts). */
    private readonly hooks: ReadonlyMap<string, DocumentHooks>,
    private readonly stockEffect: StockEffect,
    private readonly stockLock: StockLock,
    private readonly settleEffect: SettleEffect,
  ) {}

  /** The settlement effect, for a document whose file declares one. */
  private settlementOf(doc: DocumentModel): SettleEffect | undefined {
    return doc.section.settle ? this.settleEffect : undefined
  }

  private get codec() {
    return this.store.codec
  }

  private get enums() {
    return this.store.registry.enums
  }

  private hooksOf(doc: DocumentModel): DocumentHooks {
    if (!doc.section.hooks) return NO_HOOKS
    const hooks = this.hooks.get(doc.name)
    // The start checks every file's hooks; a document that still reaches here without them must not run without its rules.
    if (!hooks) throw new Error(`document ${doc.name}: hooks "${doc.section.hooks}" were not bound at start-up`)
    return hooks
  }

  private lineParent(doc: DocumentModel): FieldModel {
    return doc.lines.byName.get(doc.section.lines.parentField) as FieldModel
  }

  /**
   * The stored header as wire values, and the caller's row scope of the document's data permission
   * (`EntityStore.scope`) for the statements that change it. A document outside the scope answers the
   * same 404 as a missing one, so every action that starts here (modify, delete, approve, refuse,
   * cancel, and the modules' own actions) is narrowed like the list.
   *
   * Inside a transaction this is the action's first lock (the lock order in platform/db-tx.ts): the row
   * is read `FOR UPDATE` on PostgreSQL, so an action racing another on the same document waits for it and
   * then reads the status it left (a deleted document answers 404, an approved one its 4xx).
   */
  private async scoped(db: Db, ctx: RequestContext, doc: DocumentModel, id: unknown): Promise<{ existing: Wire; scope: Expression<SqlBool> }> {
    if (isBlank(id) || typeof id !== 'string') throw invalid(`请选择${doc.subject}`, 'id')
    const scope = await this.store.scope(db, ctx, doc.header)
    let read = db.selectFrom(doc.header.table).selectAll().where('id', '=', id).where(scope)
    if (db.isTransaction && isPostgres(db)) read = read.forUpdate()
    const row = await read.executeTakeFirst()
    if (!row) throw notFound(`${doc.subject}不存在！`)
    return { existing: this.codec.fromRow(doc.header, row), scope }
  }

  /** The stored header as wire values, or 404 (also when the caller's data permission excludes it). */
  async header(db: Db, ctx: RequestContext, doc: DocumentModel, id: unknown): Promise<Wire> {
    return (await this.scoped(db, ctx, doc, id)).existing
  }

  async storedLines(db: Db, doc: DocumentModel, id: string): Promise<Wire[]> {
    const rows = await this.linesOf(db, doc, id).orderBy('order_no').execute()
    return rows.map((r) => this.codec.fromRow(doc.lines, r))
  }

  private linesOf(db: Db, doc: DocumentModel, id: string) {
    return db.selectFrom(doc.lines.table).selectAll().where(this.lineParent(doc).column, '=', id)
  }

  /** The detail answer: header with reference names, lines with product data under `details`. */
  async get(db: Db, ctx: RequestContext, doc: DocumentModel, id: unknown): Promise<Wire> {
    const answer = await this.store.get(db, ctx, doc.header, id)
    const lines = await this.store.list(db, ctx, doc.lines, {
      params: [{ field: this.lineParent(doc).name, op: 'eq' }],
      values: { [this.lineParent(doc).name]: answer.id },
      paged: false,
      sort: { field: 'orderNo' },
    })
    answer[LINES_OUT] = await attachProducts(db, lines.datas)
    await this.hooksOf(doc).decorate?.(db, ctx, doc, answer)
    return answer
  }

  private statusOf(existing: Wire): number {
    return Number(existing.status)
  }

  private stale(doc: DocumentModel): BizError {
    return invalid(`${doc.subject}信息已过期，请刷新重试！`)
  }

  /** Reads, completes and validates a create/modify; answers header values and lines to store. */
  private async prepare(trx: Db, ctx: RequestContext, doc: DocumentModel, body: Wire, mode: 'create' | 'modify', existing?: Wire) {
    const header: Wire = {}
    for (const f of writableFields(doc.header)) if (Object.prototype.hasOwnProperty.call(body, f.name)) header[f.name] = body[f.name]
    if (mode === 'create')
      for (const f of writableFields(doc.header)) if (header[f.name] === undefined && f.default !== undefined) header[f.name] = f.default
    const raw = body[LINES_IN]
    const subject = lineSubjectOf(doc.section)
    if (!Array.isArray(raw) || !raw.length) throw invalid(`${doc.subject}中的${subject}不能为空！`, LINES_IN)
    const maxLines = maxLinesOf(doc.section)
    if (raw.length > maxLines) throw invalid(`${doc.subject}的${subject}不能超过${maxLines}行！`, LINES_IN)
    const lineFields = writableFields(doc.lines)
    const lines: Wire[] = raw.map((item) => {
      if (!item || typeof item !== 'object') throw invalid('请求参数格式错误', LINES_IN)
      const line: Wire = {}
      for (const f of lineFields) if (Object.prototype.hasOwnProperty.call(item, f.name)) line[f.name] = (item as Wire)[f.name]
      return line
    })
    refuseAllZero(doc, lines)
    // Numbers the client sent are checked before domain hooks compute with them (a hook may fill in the
    // rest, so the full validation follows the hook).
    // The empty text is "no number" and becomes null here, so no hook or total reads it as a number.
    const numbersSent = (entity: EntityModel, values: Wire) =>
      entity.fields.filter((f) => {
        if (f.type !== 'decimal' && f.type !== 'integer') return false
        if (values[f.name] === '') values[f.name] = null
        return !isNoNumber(values[f.name])
      })
    for (const f of numbersSent(doc.header, header)) {
      const message = checkField(f, header[f.name], this.enums, mode)
      if (message) throw invalid(message, f.name)
    }
    lines.forEach((line, i) => {
      for (const f of numbersSent(doc.lines, line)) {
        const message = checkField(f, line[f.name], this.enums, 'create')
        if (message) throw invalid(`第${i + 1}行${subject}${message}`, f.name)
      }
    })
    await refuseBundles(trx, doc, lines)
    await this.hooksOf(doc).prepare?.({ trx, ctx, doc, header, lines, existing, mode, body })
    if (mode === 'create') this.settlementOf(doc)?.open({ trx, ctx, doc, header, lines, body })

    const merged = mode === 'modify' ? { ...existing, ...header } : header
    const errors = validateRecord(doc.header, merged, this.enums, mode)
    if (errors.length) throw invalid(errors[0].message, errors[0].field)
    lines.forEach((line, i) => {
      const lineErrors = validateRecord(doc.lines, line, this.enums, 'create')
      if (lineErrors.length) throw invalid(`第${i + 1}行${subject}${lineErrors[0].message}`, lineErrors[0].field)
    })
    for (const name of doc.section.lines.unique ?? []) {
      const seen = new Set<string>()
      lines.forEach((line, i) => {
        const key = String(line[name] ?? '')
        if (seen.has(key)) throw invalid(doc.section.lines.uniqueMessage?.replace('{n}', String(i + 1)) ?? `第${i + 1}行${subject}重复，请检查！`)
        seen.add(key)
      })
    }
    if (mode === 'modify' && existing) {
      for (const f of writableFields(doc.header)) {
        if (!f.immutable || !(f.name in header)) continue
        if (String(this.codec.toColumn(f, existing[f.name]) ?? '') !== String(this.codec.toColumn(f, header[f.name]) ?? ''))
          throw invalid(`${f.label}创建后不允许修改`, f.name)
      }
    }
    await this.checkRefs(trx, ctx, doc.header, [header])
    await this.checkRefs(trx, ctx, doc.lines, lines)
    await checkDiscounts(trx, doc, lines)
    const totals = this.totals(doc, lines)
    // Totals are computed, so a client cannot send them too large; check they fit their columns before writing.
    for (const [name, value] of Object.entries(totals)) {
      const field = doc.header.byName.get(name)
      const message = field && checkField(field, value, this.enums, mode)
      if (message) throw invalid(message, name)
      header[name] = field?.type === 'integer' ? Number(value) : value
    }
    return { header, lines }
  }

  /**
   * Referenced rows exist and are within the caller's rows (a product outside the data permission
   * answers as a missing one): one query per reference field over all rows.
   */
  private async checkRefs(trx: Db, ctx: RequestContext, entity: EntityModel, rows: Wire[]) {
    for (const f of entity.fields) {
      if (f.type !== 'ref' || f.readOnly || f.multiple) continue
      const target = this.store.registry.get(f.ref as string)
      if (target.scope !== entity.scope) continue
      const wanted = [...new Set(rows.map((r) => r[f.name]).filter((v) => !isBlank(v)).map(String))]
      if (!wanted.length) continue
      const found = await this.store.visibleRows(trx, ctx, target, wanted)
      if (found.length !== wanted.length) throw invalid(`${f.label}不存在`, f.name)
    }
  }

  /** totalNum, totalGiftNum, totalAmount and the declared `sums`: the browser's computation (shared/metadata/document-totals.ts). */
  private totals(doc: DocumentModel, lines: Wire[]): Wire {
    const sums = Object.fromEntries(documentSums(lines, doc.section.sums).map((s) => [s.field, s.value]))
    const t = doc.section.totals
    if (!t) return sums
    if (t.gift) for (const line of lines) line[t.gift] = isGiftLine(line, t)
    const { num, giftNum, amount } = documentTotals(lines, t)
    // Quantities as integer text: a sum past the safe-integer range is refused by the column check, not rounded.
    return { totalNum: num, totalGiftNum: giftNum, ...(t.price ? { totalAmount: amount } : {}), ...sums }
  }

  private headerRow(doc: DocumentModel, header: Wire) {
    const fields = doc.header.fields.filter((f) => f.name in header)
    return this.codec.toRow(header, fields)
  }

  private async insertLines(trx: Db, ctx: RequestContext, doc: DocumentModel, id: string, lines: Wire[]) {
    const parent = this.lineParent(doc)
    const stored = doc.lines.fields.filter((f) => f !== parent && f.name !== 'orderNo')
    for (const line of lines) {
      line.id = newId()
      // Counters the engine keeps (receiveNum, returnNum…) start at their declared default.
      for (const f of stored) if (line[f.name] === undefined && f.default !== undefined) line[f.name] = f.default
    }
    if (!lines.length) return
    const audit = auditColumns(ctx)
    const rows = lines.map((line, i) => ({
      ...this.codec.toRow(line, stored),
      id: line.id,
      [parent.column]: id,
      order_no: i + 1,
      ...audit,
    }))
    // One statement binds every value: SQLite allows 32,766 and PostgreSQL 65,535 per statement, so a
    // document of maxLines lines is inserted in chunks that stay far below both.
    const perChunk = Math.max(1, Math.floor(BOUND_VALUES_PER_INSERT / Object.keys(rows[0]).length))
    for (let start = 0; start < rows.length; start += perChunk)
      await trx.insertInto(doc.lines.table).values(rows.slice(start, start + perChunk)).execute()
  }

  /**
   * A document now waiting for approval is a 待办 of everyone who may approve it (the approve key of its
   * list menu), except its author, who may not approve their own (separation of duties); it opens the
   * approve page below that menu. Approving, refusing or deleting it closes them.
   */
  private async awaitApproval(trx: Db, ctx: RequestContext, doc: DocumentModel, id: string, code: unknown) {
    const permission = doc.header.file.api?.permission
    if (!hasApproval(doc.section) || !permission) return
    const menuPath = await menuPathOf(trx, `${permission}:query`)
    if (!menuPath) return
    const approvers = (await usersHolding(trx, [`${permission}:approve`])).filter((u) => u !== ctx.userId)
    await addTodos(trx, approvers, { key: approvalKey(id), title: `${doc.subject}待审核，单号：${String(code ?? '')}`, jumpUrl: `${menuPath.replace(/\/+$/, '')}/approve/${encodeURIComponent(id)}` })
  }

  async create(trx: Db, ctx: RequestContext, doc: DocumentModel, body: Wire): Promise<string> {
    const { header, lines } = await this.prepare(trx, ctx, doc, body, 'create')
    const id = newId()
    header.code = await nextDocumentNumber(trx)
    if (hasApproval(doc.section)) header.status = DocumentStatus.CREATED
    await trx
      .insertInto(doc.header.table)
      .values({ ...this.headerRow(doc, header), id, ...auditColumns(ctx) })
      .execute()
    await this.insertLines(trx, ctx, doc, id, lines)
    await this.store.requireWritten(trx, ctx, doc.header, [id], `${doc.subject}不存在！`)
    await reserveLines(trx, this.store.registry, doc, lines)
    await this.hooksOf(doc).saved?.({ trx, ctx, doc, header, lines, id, body })
    await addTimeline(trx, ctx, id, TimelineType.CREATE, '创建单据')
    await this.awaitApproval(trx, ctx, doc, id, header.code)
    await writeOpLog(trx, ctx, `新增${doc.subject}，单号：${header.code}`, OpLogType.OTHER, { id })
    return id
  }

  private checkEditable(doc: DocumentModel, existing: Wire) {
    if (!hasApproval(doc.section)) return
    const status = this.statusOf(existing)
    if (EDITABLE.includes(status)) return
    throw invalid(status === DocumentStatus.APPROVE_PASS ? `${doc.subject}已审核通过，无法修改！` : `${doc.subject}无法修改！`)
  }

  /**
   * Locks what `lines` hold, every set in id order, before any of it changes (the second step of the lock
   * order): the source lines they reserve, then the document's own holdings (DocumentHooks.lockHeld).
   */
  private async lockHeld(trx: Db, doc: DocumentModel, lines: Wire[]) {
    if (!lines.length || !isPostgres(trx)) return
    await lockReservations(trx, this.store.registry, doc, lines)
    await this.hooksOf(doc).lockHeld?.({ trx, doc, lines })
  }

  /** Gives back what the stored document holds (reservations, domain state) before it is replaced or deleted. */
  private async release(trx: Db, ctx: RequestContext, doc: DocumentModel, existing: Wire, stored?: Wire[]) {
    const id = String(existing.id)
    const lines = stored ?? (await this.storedLines(trx, doc, id))
    await this.hooksOf(doc).release?.({ trx, ctx, doc, header: existing, lines, existing, id })
    await releaseReservations(trx, this.store.registry, doc, lines)
    await trx.deleteFrom(doc.lines.table).where(this.lineParent(doc).column, '=', id).execute()
  }

  async modify(trx: Db, ctx: RequestContext, doc: DocumentModel, body: Wire): Promise<void> {
    const { existing, scope } = await this.scoped(trx, ctx, doc, body.id)
    this.checkEditable(doc, existing)
    const id = String(existing.id)
    const stored = await this.storedLines(trx, doc, id)
    const sent = Array.isArray(body[LINES_IN]) ? (body[LINES_IN] as unknown[]).filter((l): l is Wire => !!l && typeof l === 'object') : []
    // What the old and the new lines hold, as one set per table: a modify that swaps two check sheets
    // locks them in the same order as one that swaps them back.
    await this.lockHeld(trx, doc, [...stored, ...sent])
    await this.release(trx, ctx, doc, existing, stored)
    const { header, lines } = await this.prepare(trx, ctx, doc, body, 'modify', existing)
    const approval = hasApproval(doc.section)
    const reset = approval ? { status: DocumentStatus.CREATED, approve_by: null, approve_time: null, refuse_reason: null } : {}
    let update = trx
      .updateTable(doc.header.table)
      .set({ ...this.headerRow(doc, header), ...reset, ...updateColumns(ctx) })
      .where('id', '=', id)
      .where(scope)
    if (approval) update = update.where('status', 'in', EDITABLE)
    const done = await update.executeTakeFirst()
    if (!Number(done.numUpdatedRows)) throw this.stale(doc)
    await this.insertLines(trx, ctx, doc, id, lines)
    await this.store.requireWritten(trx, ctx, doc.header, [id], `${doc.subject}不存在！`)
    await reserveLines(trx, this.store.registry, doc, lines)
    await this.hooksOf(doc).saved?.({ trx, ctx, doc, header: { ...existing, ...header }, lines, existing, id, body })
    await addTimeline(trx, ctx, id, TimelineType.UPDATE, '修改单据')
    await this.awaitApproval(trx, ctx, doc, id, existing.code)
    await writeOpLog(trx, ctx, `修改${doc.subject}，单号：${existing.code}`, OpLogType.OTHER, { id })
  }

  async remove(trx: Db, ctx: RequestContext, doc: DocumentModel, id: unknown): Promise<void> {
    const { existing, scope } = await this.scoped(trx, ctx, doc, id)
    const approval = hasApproval(doc.section)
    if (approval && !EDITABLE.includes(this.statusOf(existing))) throw invalid(`“审核通过”的${doc.subject}不允许执行删除操作！`)
    const docId = String(existing.id)
    await this.hooksOf(doc).remove?.({ trx, ctx, doc, header: existing, lines: [], existing, id: docId })
    const stored = await this.storedLines(trx, doc, docId)
    await this.lockHeld(trx, doc, stored)
    await this.release(trx, ctx, doc, existing, stored)
    let removal = trx.deleteFrom(doc.header.table).where('id', '=', docId).where(scope)
    if (approval) removal = removal.where('status', 'in', EDITABLE)
    const done = await removal.executeTakeFirst()
    if (!Number(done.numDeletedRows)) throw this.stale(doc)
    await removeTimeline(trx, String(existing.id))
    await closeTodos(trx, approvalKey(docId))
    await writeOpLog(trx, ctx, `删除${doc.subject}，单号：${existing.code}`, OpLogType.OTHER, { id: existing.id })
  }

  async approvePass(trx: Db, ctx: RequestContext, doc: DocumentModel, id: unknown, description?: unknown): Promise<void> {
    const { existing, scope } = await this.scoped(trx, ctx, doc, id)
    if (!EDITABLE.includes(this.statusOf(existing))) throw invalid(`${doc.subject}已审核通过，不允许继续执行审核！`)
    await assertNotOwnApproval(trx, ctx, existing.createById, doc.subject)
    const docId = String(existing.id)
    const set: Wire = { status: DocumentStatus.APPROVE_PASS, approve_by: ctx.name, approve_time: now(), refuse_reason: null, ...updateColumns(ctx) }
    if ((description !== undefined || doc.section.approveReplacesDescription) && doc.header.byName.has('description'))
      set.description = isBlank(description) ? '' : String(description).slice(0, 200)
    const header = { ...existing, status: DocumentStatus.APPROVE_PASS }
    const hooks = this.hooksOf(doc)
    // The status, timeline, op log, the end of its 待办 and the settlement rows in one statement on
    // PostgreSQL, which also reads the lines, before the stock effect: the stock rows it locks are then held
    // for fewer statements until the commit (concurrent approvals of the same products wait on them), and
    // the approval costs five round trips fewer. A hook's check after it that refuses takes it back with the
    // transaction.
    const done = await writeTogetherThenRead(
      trx,
      trx.updateTable(doc.header.table).set(set).where('id', '=', docId).where('status', 'in', EDITABLE).where(scope).returning('id'),
      [
        timelineInsert(trx, ctx, docId, TimelineType.APPROVE_PASS, '审核通过'),
        opLogInsert(trx, ctx, `审核通过${doc.subject}，单号：${existing.code}`, OpLogType.OTHER, { id: docId }),
        closeTodosDelete(trx, approvalKey(docId)),
        ...(this.settlementOf(doc)?.post({ trx, ctx, doc, header, id: docId }) ?? []),
      ],
      hooks.hasBreakdown ? this.linesOf(trx, doc, docId).select(hooks.hasBreakdown(trx, docId).as('has_breakdown')) : this.linesOf(trx, doc, docId),
      ['order_no'],
    )
    if (!done.changed) throw this.stale(doc)
    const lines = done.rows.map((r) => this.codec.fromRow(doc.lines, r))
    const hasBreakdown = hooks.hasBreakdown ? Boolean(Number(done.rows[0]?.has_breakdown)) : undefined
    await refuseBundles(trx, doc, lines)
    await checkDiscounts(trx, doc, lines)
    const event = { trx, ctx, doc, header, lines, existing, id: docId, hasBreakdown }
    await hooks.beforeApprove?.(event)
    await this.stockEffect(event)
    const status = await hooks.approve?.(event)
    if (typeof status === 'number' && status !== DocumentStatus.APPROVE_PASS)
      await trx.updateTable(doc.header.table).set({ status }).where('id', '=', docId).where('status', '=', DocumentStatus.APPROVE_PASS).execute()
    await this.announce(trx, ctx, doc, WEBHOOK_EVENT.DOCUMENT_APPROVED, existing, { status: typeof status === 'number' ? status : DocumentStatus.APPROVE_PASS })
  }

  /** The webhook event of a change of state: every document kind with approval announces it, none has to declare it. */
  private async announce(trx: Db, ctx: RequestContext, doc: DocumentModel, event: ApprovalEvent, existing: Wire, extra: Wire): Promise<void> {
    await announceApproval(trx, ctx, event, { kind: doc.name, subject: doc.subject, id: existing.id, code: existing.code }, extra)
  }

  async approveRefuse(trx: Db, ctx: RequestContext, doc: DocumentModel, id: unknown, reason: unknown): Promise<void> {
    if (isBlank(reason)) throw invalid('拒绝理由不能为空！', 'refuseReason')
    const { existing, scope } = await this.scoped(trx, ctx, doc, id)
    const status = this.statusOf(existing)
    if (status === DocumentStatus.APPROVE_REFUSE) throw invalid(`${doc.subject}已审核拒绝，不允许继续执行审核！`)
    if (status !== DocumentStatus.CREATED) throw invalid(`${doc.subject}已审核通过，不允许继续执行审核！`)
    await assertNotOwnApproval(trx, ctx, existing.createById, doc.subject)
    const text = String(reason).trim().slice(0, 200)
    await this.hooksOf(doc).refuse?.({ trx, ctx, doc, header: existing, lines: [], existing, id: String(existing.id) })
    const docId = String(existing.id)
    // One statement on PostgreSQL, as approvePass.
    const done = await writeTogether(
      trx,
      trx
        .updateTable(doc.header.table)
        .set({ status: DocumentStatus.APPROVE_REFUSE, approve_by: ctx.name, approve_time: now(), refuse_reason: text, ...updateColumns(ctx) })
        .where('id', '=', docId)
        .where('status', '=', DocumentStatus.CREATED)
        .where(scope)
        .returning('id'),
      [
        timelineInsert(trx, ctx, docId, TimelineType.APPROVE_RETURN, `审核拒绝，拒绝理由：${text}`),
        opLogInsert(trx, ctx, `审核拒绝${doc.subject}，单号：${existing.code}`, OpLogType.OTHER, { id: existing.id }),
        closeTodosDelete(trx, approvalKey(docId)),
      ],
    )
    if (!done.length) throw this.stale(doc)
    await this.announce(trx, ctx, doc, WEBHOOK_EVENT.DOCUMENT_REFUSED, existing, { status: DocumentStatus.APPROVE_REFUSE, refuseReason: text })
  }

  /** Back to pending review (purchase orders, take-stock sheets): only from 3. */
  async cancelApprove(trx: Db, ctx: RequestContext, doc: DocumentModel, id: unknown): Promise<void> {
    const { existing, scope } = await this.scoped(trx, ctx, doc, id)
    if (this.statusOf(existing) !== DocumentStatus.APPROVE_PASS) throw invalid(`${doc.subject}未审核通过，不允许取消审核！`)
    const docId = String(existing.id)
    const done = await trx
      .updateTable(doc.header.table)
      .set({ status: DocumentStatus.CREATED, approve_by: null, approve_time: null, ...updateColumns(ctx) })
      .where('id', '=', docId)
      .where('status', '=', DocumentStatus.APPROVE_PASS)
      .where(scope)
      .executeTakeFirst()
    if (!Number(done.numUpdatedRows)) throw this.stale(doc)
    const lines = await this.storedLines(trx, doc, docId)
    const event = { trx, ctx, doc, header: existing, lines, existing, id: docId }
    await this.settlementOf(doc)?.reverse(event)
    await this.hooksOf(doc).cancelApprove?.(event)
    await addTimeline(trx, ctx, docId, TimelineType.CANCEL_APPROVE, '取消审核')
    await this.awaitApproval(trx, ctx, doc, docId, existing.code)
    await writeOpLog(trx, ctx, `取消审核${doc.subject}，单号：${existing.code}`, OpLogType.OTHER, { id: docId })
    await this.announce(trx, ctx, doc, WEBHOOK_EVENT.DOCUMENT_CANCELLED, existing, { status: DocumentStatus.CREATED })
  }

  /**
   * All-or-nothing over several documents: the first failure names its position and aborts the
   * transaction. The lock order of a batch (platform/db-tx.ts): every document's own row first, in id
   * order, then what all of them hold, each set in id order; only then does the first action run, so two
   * overlapping batches (or a batch and a single action) queue on the first document they share.
   */
  async batch(
    trx: Db,
    doc: DocumentModel,
    ids: string[],
    action: string,
    run: (id: string) => Promise<void>,
    options: { approving?: boolean } = {},
  ): Promise<void> {
    const wanted = [...new Set(ids.filter((id) => typeof id === 'string'))].sort()
    if (wanted.length > 1 && isPostgres(trx)) {
      const headers = await trx.selectFrom(doc.header.table).selectAll().where('id', 'in', wanted).orderBy('id').forUpdate().execute()
      const rows = await trx.selectFrom(doc.lines.table).selectAll().where(this.lineParent(doc).column, 'in', wanted).execute()
      const lines = rows.map((r) => this.codec.fromRow(doc.lines, r))
      await this.lockHeld(trx, doc, lines)
      if (options.approving)
        await this.stockLock(
          trx,
          doc,
          headers.map((r) => this.codec.fromRow(doc.header, r)),
          lines,
        )
    }
    for (const [i, id] of ids.entries()) {
      try {
        await run(id)
      } catch (error) {
        if (error instanceof BizError) throw invalid(`第${i + 1}个${doc.subject}${action}失败，失败原因：${error.message}`)
        throw error
      }
    }
  }
}
