import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely'
import type { Db, DbKind } from '../db/dialect.js'
import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'
import { refCodeProperty, refLabelProperty } from '../../shared/metadata/entity-model.js'
import type { ListColumn, QueryParam } from '../../shared/generated/entity.js'
import { deriveRules } from '../../shared/metadata/derive.js'
import { isBlank, validateRecord, writableFields } from '../../shared/metadata/validate-record.js'
import { forbidden, invalid, notFound } from '../platform/errors.js'
import { auditColumns, updateColumns } from '../platform/audit-columns.js'
import { newId } from '../platform/ids.js'
import { hashPassword } from '../platform/passwords.js'
import { hasPermission, type RequestContext } from '../platform/request-context.js'
import { writeOpLog, OpLogType } from '../platform/op-log.js'
import type { EntityRegistry } from './entity-registry.js'
import { linkTable, linkedRefs } from './entity-tables.js'
import { linesEntityName } from '../../shared/metadata/document-model.js'
import type { HookRegistry } from './entity-hooks.js'
import { buildConditions, paramNames, searchedByIndex, treeDescendants } from './list-conditions.js'
import { checkConditions, entityConditions } from './condition-values.js'
import type { RecordCodec, Row, Wire } from './record-codec.js'
import { pageArgs } from '../platform/page-args.js'
import { countedRows, hasRowCounter } from '../db/row-counter.js'
import { executeListed } from '../db/prepared-statements.js'
import { shapedStatement, where } from '../db/shaped-statements.js'
import { takenMessage } from './unique-message.js'
import { leafOnly, notLeaf } from './leaf-only.js'
import { lockRows } from '../db/row-locks.js'
import { isPostgres } from '../db/exact-decimal.js'

/** How a create or modify is recorded. */
export interface WriteOptions {
  /** false: no op-log row of its own (the caller logs the whole operation). Default true. */
  logged?: boolean
}

export interface Page<T> {
  pageIndex: number
  pageSize: number
  totalCount: number
  datas: T[]
}

export interface ListRequest {
  params: readonly QueryParam[]
  columns?: readonly ListColumn[]
  values: Record<string, unknown>
  paged: boolean
  /** Fallback order when the request names none. */
  sort?: { field: string; order?: 'asc' | 'desc' }
  /** A predicate of the caller's module over `t` (e.g. the CRM ownership tab), added to the data permission. */
  where?: Expression<SqlBool>
  /** Unpaged reads in slices (the streamed exports, engine/list-export.ts): at most `limit` rows from `offset`. */
  limit?: number
  offset?: number
}

/**
 * The caller's data-permission predicate for a permission type, over the given table aliases; reads
 * through `db` (the list's own handle, a transaction when the list runs inside one).
 */
export type DataFilter = (
  db: Db,
  ctx: RequestContext,
  type: number,
  aliases: Record<string, string>,
  /** Placeholders reached through a reference of the row rather than a join (semi-joins, see SqlOptions.references). */
  references?: Record<string, { table: string; key: string }>,
) => Promise<Expression<SqlBool> | undefined>
const fieldOf = (c: ListColumn | QueryParam) => (typeof c === 'string' ? c : c.field)

/** What narrows a caller's rows of one entity: predicates over `t` (joining nothing). */
interface Restriction {
  predicates: Expression<SqlBool>[]
}

/** The one filter a restriction puts on `t` (entity-store `narrowed`, and a list's first filter). */
const restricted = (restriction: Restriction): Expression<SqlBool> => where.and(restriction.predicates)

/**
 * The generic persistence of every entity: list with conditions, get, create, modify, delete and
 * enable/disable, each write in one transaction with validation, uniqueness, references, hooks and
 * the op log. Nothing here knows a particular entity.
 */
/** The writable fields of an entity and the groups a write treats apart, computed once per entity model. */
interface WriteShape {
  fields: FieldModel[]
  defaults: FieldModel[]
  derived: FieldModel[]
  passwords: FieldModel[]
  immutables: FieldModel[]
}
const writeShapes = new WeakMap<EntityModel, WriteShape>()
function writeShape(entity: EntityModel): WriteShape {
  let shape = writeShapes.get(entity)
  if (!shape) {
    const fields = writableFields(entity)
    shape = {
      fields,
      defaults: fields.filter((f) => f.default !== undefined),
      derived: fields.filter((f) => f.derive),
      passwords: fields.filter((f) => f.type === 'password'),
      immutables: fields.filter((f) => f.immutable),
    }
    writeShapes.set(entity, shape)
  }
  return shape
}

/** A number per entity model: a list's statement shape names its model (a reloaded registry makes new ones). */
const modelIds = new WeakMap<EntityModel, number>()
let models = 0
const modelId = (entity: EntityModel): number => {
  let id = modelIds.get(entity)
  if (id === undefined) modelIds.set(entity, (id = ++models))
  return id
}

/** The column of a page that carries the search's total (countInPage in list()). */
const IN_PAGE_TOTAL = '__total'

export class EntityStore {
  constructor(
    readonly kind: DbKind,
    readonly registry: EntityRegistry,
    readonly codec: RecordCodec,
    readonly hooks: HookRegistry,
  ) {}

  /** Set once at start-up by the data-permission module. */
  dataFilter?: DataFilter

  private multiRefs(entity: EntityModel): FieldModel[] {
    return linkedRefs(entity)
  }

  /** Single refs of the same scope whose label column can be joined in. */
  private joinableRef(entity: EntityModel, field: FieldModel): EntityModel | undefined {
    if (field.type !== 'ref' || field.multiple || !field.ref) return undefined
    const target = this.registry.find(field.ref)
    return target && target.scope === entity.scope ? target : undefined
  }

  /** The column naming a record to a user: its picker's label field, else name, title or code. */
  private holderColumn(entity: EntityModel): string {
    const declared = entity.file.views?.picker?.labelField
    const name = declared && entity.byName.has(declared) ? declared : entity.byName.has('name') ? 'name' : entity.byName.has('title') ? 'title' : 'code'
    return entity.byName.get(name)?.column ?? 'id'
  }

  private labelColumn(target: EntityModel, field: FieldModel): string {
    const name = field.refLabel ?? (target.byName.has('name') ? 'name' : target.byName.has('title') ? 'title' : 'code')
    return target.byName.get(name)?.column ?? 'id'
  }

  /**
   * The code column of a joined ref answered beside its label (`scCode` next to `scName`, spec 000 §3
   * picker rows): when the target has a code that is not already the label and the entity has no field
   * of that wire name itself.
   */
  private codeColumn(entity: EntityModel, target: EntityModel, field: FieldModel): string | undefined {
    const code = target.byName.get('code')
    if (!code || code.hidden || code.column === this.labelColumn(target, field) || entity.byName.has(refCodeProperty(field.name))) return undefined
    return code.column
  }

  async list(db: Db, ctx: RequestContext, entity: EntityModel, req: ListRequest): Promise<Page<Wire>> {
    const { pageIndex, pageSize } = pageArgs(req.values)
    // Multi-ref params are matched below, outside buildConditions: their ids are read here like every other value.
    checkConditions(entityConditions(entity, req.params, this.codec.enums), req.values, this.codec.enums)
    const conditions = await buildConditions({
      entity,
      kind: this.kind,
      codec: this.codec,
      alias: 't',
      params: req.params.filter((p) => !this.multiRefField(entity, p.field)),
      values: req.values,
      descendants: (name, id) => treeDescendants(db, this.registry.get(name), id),
    })
    for (const p of req.params) {
      const multi = this.multiRefField(entity, p.field)
      const raw = req.values[paramNames(p)[0]]
      if (!multi || isBlank(raw)) continue
      const target = this.registry.get(multi.ref as string)
      const ids = p.op === 'treeContains' ? await treeDescendants(db, target, String(raw)) : String(raw).split(',')
      const link = linkTable(entity, multi)
      conditions.push((eb) => eb('t.id', 'in', eb.selectFrom(link).select('owner_id').where('ref_id', 'in', ids)))
    }
    const restriction = await this.restriction(db, ctx, entity)
    // The rows asked for: the caller's restriction, the conditions and the caller's own predicate, each one
    // `where` of the statement, in this order.
    const filters: Expression<SqlBool>[] = []
    if (restriction) filters.push(restricted(restriction))
    if (conditions.length) filters.push(where.and(conditions.map((c) => c(where))))
    if (req.where) filters.push(req.where)
    const from = (each: readonly Expression<SqlBool>[]) => this.filtered(db, entity, each)

    const sortName = String(req.values.sortField ?? '') || req.sort?.field
    const sortField = sortName ? entity.byName.get(sortName) : undefined
    if (sortName && (!sortField || sortField.hidden)) throw invalid('排序字段不存在', 'sortField')
    const order = String(req.values.sortOrder ?? req.sort?.order ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc'
    // A unique sort column already fixes the order; a tie-breaker would defeat its index.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    type Select = SelectQueryBuilder<any, any, any>
    const sorted = (query: Select): Select => {
      let out = sortField ? query.orderBy(`t.${sortField.column}`, order) : query
      if (!sortField?.unique) out = out.orderBy('t.id', 'desc')
      return out
    }
    // A field may be declared twice (its name and, `show: code`, its code): one join serves both.
    const joins = [...new Set((req.columns ?? entity.fields.map((f) => f.name)).map(fieldOf))]
      .flatMap((name) => {
        const field = entity.byName.get(name)
        const target = field && this.joinableRef(entity, field)
        return field && target ? [{ field, target, alias: `r_${field.column}` }] : []
      })
    // A search a text index narrows (a broad Chinese name search: its rows scattered over the table) counts
    // in the page's own pass (`count(*) over ()`, before the limit) instead of visiting every row twice.
    const countInPage = req.paged && conditions.some((c) => searchedByIndex.has(c))
    const cut = req.paged ? [pageSize, (pageIndex - 1) * pageSize] : req.limit !== undefined ? [req.limit, req.offset ?? 0] : []
    // Everything the page's statement is built from besides its filters and its cut (shaped-statements.ts).
    const shape = `page ${modelId(entity)} ${sortField?.name ?? ''} ${order} ${countInPage} ${cut.length} ${joins.map((j) => j.field.name).join(',')}`
    const statement = shapedStatement(db, shape, filters, cut, (each, [limit, offset]) => {
      const base = from(each)
      let page = sorted(countInPage ? base.selectAll('t').select(sql<string>`count(*) over ()`.as(IN_PAGE_TOTAL)) : base.selectAll('t'))
      if (limit !== undefined) page = page.limit(limit as number).offset(offset as number)
      // The ref labels are joined to the page's rows only, not to every row that matches before the page is
      // cut (a search matching hundreds of rows joined each of them to every referenced table).
      let q = joins.length && limit !== undefined ? sorted(db.selectFrom(page.as('t')).selectAll('t')) : page
      for (const { field, target, alias } of joins) {
        q = q.leftJoin(`${target.table} as ${alias}`, `${alias}.id`, `t.${field.column}`).select(`${alias}.${this.labelColumn(target, field)} as __${field.name}`)
        const code = this.codeColumn(entity, target, field)
        if (code) q = q.select(`${alias}.${code} as __code_${field.name}`)
      }
      return q
    })
    const rows = await executeListed(db, statement)
    const inPage = countInPage && rows.length ? Number(rows[0][IN_PAGE_TOTAL]) : undefined
    if (countInPage) for (const row of rows) delete row[IN_PAGE_TOTAL]
    const datas = await this.answer(db, ctx, entity, rows)
    const everyRow = !filters.length
    const count = async () => {
      const counted = shapedStatement(db, `count ${modelId(entity)}`, filters, [], (each) => from(each).select((eb) => eb.fn.countAll().as('n')))
      return Number((await executeListed(db, counted))[0]?.n ?? 0)
    }
    const totalCount = inPage ?? (req.paged ? await this.total(db, entity, count, rows.length, pageIndex, pageSize, everyRow) : datas.length)
    return { pageIndex, pageSize, totalCount, datas }
  }

  /**
   * The pager's exact total. A page that holds rows but is not full is the last one, so the total is
   * its offset plus its rows and no count runs: the usual narrow search (a code typed into a picker)
   * costs one statement, not two. Every row of the table is the answer (`everyRow`): its
   * trigger-kept counter is exact and reads no rows. Otherwise the rows are counted.
   */
  private async total(db: Db, entity: EntityModel, count: () => Promise<number>, pageRows: number, pageIndex: number, pageSize: number, everyRow: boolean): Promise<number> {
    const offset = (pageIndex - 1) * pageSize
    if (pageRows < pageSize && (pageRows > 0 || offset === 0)) return offset + pageRows
    const counted = everyRow && hasRowCounter(entity) ? await countedRows(db, entity.table) : undefined
    return counted ?? count()
  }

  /**
   * The rows of `entity` this caller may touch, as a select over `${table} as t`: the one place the
   * data-permission predicate is added (ARCHITECTURE "Row rules live under every statement"). The refs
   * the predicate names (category, brand, party) are joined as `dp_<column>`, only when a predicate
   * applies. Get, load and export start from here, a list from the same filter (`restricted`); writes use
   * `scope`, built from the same restriction. Tenant needs no predicate: each tenant has its own database.
   */
  async rows(db: Db, ctx: RequestContext, entity: EntityModel) {
    return this.narrowed(db, entity, await this.restriction(db, ctx, entity))
  }

  /**
   * A tenant table as a statement outside the store (the custom lists) reads it under its own alias:
   * an entity's table is the rows `rows()` answers, with the same restriction as the entity's own
   * lists, so a row the caller cannot open is absent whether the table is the main one or joined (the
   * join keeps its main row with empty columns); a link table of a multiple ref holds the links of the
   * owner rows the caller may see, a document's lines those of the headers the caller may see (the
   * document store reads lines only after their header). The bare table when nothing restricts the caller.
   */
  async restrictedTable(db: Db, ctx: RequestContext, table: string, alias: string) {
    const entity = this.registry.all().find((e) => e.scope === 'tenant' && e.table === table)
    if (entity) {
      const predicates = [...((await this.restriction(db, ctx, entity))?.predicates ?? [])]
      const header = this.registry.documents().find((d) => linesEntityName(d.name) === entity.name)
      const headerRestriction = header && (await this.restriction(db, ctx, header))
      if (header && headerRestriction) {
        const parent = entity.byName.get(header.file.document!.lines.parentField)!
        predicates.push(sql<SqlBool>`${sql.ref(`t.${parent.column}`)} in (${this.narrowed(db, header, headerRestriction).select('t.id')})`)
      }
      return predicates.length ? this.narrowed(db, entity, { predicates }).selectAll('t').as(alias) : `${table} as ${alias}`
    }
    const owner = this.linkOwner(table)
    const restriction = owner && (await this.restriction(db, ctx, owner))
    if (!owner || !restriction) return `${table} as ${alias}`
    const visible = this.narrowed(db, owner, restriction).select('t.id')
    return db.selectFrom(`${table} as l`).selectAll('l').where('l.owner_id', 'in', visible).as(alias)
  }

  /** The ids of the rows of `entity` this caller may touch, or undefined when nothing restricts them. */
  async visibleIds(db: Db, ctx: RequestContext, entity: EntityModel) {
    const restriction = await this.restriction(db, ctx, entity)
    return restriction && this.narrowed(db, entity, restriction).select('t.id')
  }

  /** The tenant entity whose multiple ref a link table stores. */
  linkOwner(table: string): EntityModel | undefined {
    return this.registry.all().find((e) => e.scope === 'tenant' && this.multiRefs(e).some((f) => linkTable(e, f) === table))
  }

  private narrowed(db: Db, entity: EntityModel, restriction: Restriction | undefined) {
    return this.filtered(db, entity, restriction ? [restricted(restriction)] : [])
  }

  /** `${table} as t` under each of `filters`, one `where` each (a list's statement is built from its filters). */
  private filtered(db: Db, entity: EntityModel, filters: readonly Expression<SqlBool>[]) {
    return filters.reduce((q, f) => q.where(f), db.selectFrom(`${entity.table} as t`))
  }

  /** What narrows this caller's rows (ownership hooks, the data-permission predicate and its joins), or undefined when nothing does. */
  private async restriction(db: Db, ctx: RequestContext, entity: EntityModel, ownership = true): Promise<Restriction | undefined> {
    const predicates: Expression<SqlBool>[] = []
    for (const h of ownership ? this.hooks.of(entity.name) : []) {
      const own = await h.restrictRows?.({ db, ctx, entity })
      if (own) predicates.push(own)
    }
    const restricted = entity.file.dataPermission
    if (restricted) {
      // Installed at start-up; without it a restricted entity would silently show every row.
      if (!this.dataFilter) throw new Error(`data permission filter not installed (entity ${entity.name})`)
      // The row's own placeholder is `t`; the others are reached through its ref fields as semi-joins
      // (`t.category_id in (select id from … where …)`), which count and page as cheaply as the best
      // hand-written SQL, where joining every referenced table for the filter did not.
      const aliases: Record<string, string> = {}
      const references: Record<string, { table: string; key: string }> = {}
      for (const [table, fieldName] of Object.entries(restricted.tables)) {
        const field = fieldName ? entity.byName.get(fieldName) : undefined
        if (field) references[table] = { table: this.registry.get(field.ref as string).table, key: `t.${field.column}` }
        else aliases[table] = 't'
      }
      const predicate = await this.dataFilter(db, ctx, restricted.type, aliases, references)
      if (predicate) predicates.push(predicate)
    }
    return predicates.length ? { predicates } : undefined
  }

  /**
   * `id in (ids of rows(…))` for the update and delete statements of row-level writes (and any select
   * over the bare table), so a write can only reach rows the caller can read. Always an expression, so
   * every statement carries it the same way; `1 = 1` when nothing restricts the caller (no sub-select
   * over the whole table: bench settle-candidates).
   */
  async scope(db: Db, ctx: RequestContext, entity: EntityModel): Promise<Expression<SqlBool>> {
    const restriction = await this.restriction(db, ctx, entity)
    if (!restriction) return sql<SqlBool>`1 = 1`
    const visible = this.narrowed(db, entity, restriction).select('t.id')
    return sql<SqlBool>`${sql.ref('id')} in (${visible})`
  }

  /**
   * All of `ids` exist and are within the caller's rows, or the not-found message: a row outside the
   * data permission answers exactly as a missing one, and a batch with one such id changes nothing.
   */
  private async requireRows(db: Db, ctx: RequestContext, entity: EntityModel, ids: string[]): Promise<void> {
    const wanted = [...new Set(ids)]
    const found = await (await this.rows(db, ctx, entity)).select('t.id').where('t.id', 'in', wanted).execute()
    if (found.length !== wanted.length) throw notFound(`${entity.label}不存在！`)
  }

  /**
   * Of the rows of `entity` whose `column` (a schema column, `id` by default) is one of `values`, those
   * the caller may read, as `{id, key}` (key = that column's value): the one scoped lookup every write
   * resolves its references through (ref fields of entities and document lines, the source a document
   * follows, an import's codes), so a row outside the caller's rows answers as a missing one. One
   * statement per call (values in slices of 1,000), plus the data-permission read when one applies.
   */
  async visibleRows(db: Db, ctx: RequestContext, entity: EntityModel, values: readonly unknown[], column = 'id'): Promise<{ id: string; key: unknown }[]> {
    const wanted = [...new Set(values)]
    if (!wanted.length) return []
    const restriction = await this.restriction(db, ctx, entity)
    // Inside a PostgreSQL write the rows found are held FOR KEY SHARE (in id order) until it commits: a delete of
    // one of them (remove() locks its rows FOR UPDATE first) waits and then finds the new reference, or went
    // first and the row is not found here. Changing the row's other columns is not held up.
    const hold = db.isTransaction && isPostgres(db)
    const out: { id: string; key: unknown }[] = []
    for (let at = 0; at < wanted.length; at += 1000) {
      const found = this.narrowed(db, entity, restriction)
        .select(['t.id', `t.${column} as k`])
        .where(`t.${column}`, 'in', wanted.slice(at, at + 1000))
      const rows = await (hold ? found.orderBy('t.id').forKeyShare() : found).execute()
      for (const r of rows) out.push({ id: String(r.id), key: r.k })
    }
    return out
  }

  /** Of the rows `ids` of a tree entity, those that have children (a leaf-only ref may name none of them). */
  async parentsAmong(db: Db, tree: EntityModel, ids: readonly unknown[]): Promise<Set<string>> {
    const parent = tree.parentField ? tree.byName.get(tree.parentField) : undefined
    if (!parent || !ids.length) return new Set()
    const rows = await db.selectFrom(tree.table).select(`${parent.column} as p`).distinct().where(parent.column, 'in', [...new Set(ids)]).execute()
    return new Set(rows.map((r) => String(r.p)))
  }

  /**
   * After a create or modify, inside its transaction: the written rows are still within the caller's
   * data permission, or the write is refused with the entity's not-found message (the transaction rolls
   * back), so no one creates a row outside the scope or moves one out of it. Ownership rules
   * (restrictRows) are not asked: they say who reads a row, and a write may rightly give a row to
   * someone else (a customer created for another salesperson, a follow-up the caller does not follow).
   * Free when no data permission applies; otherwise one statement per 1,000 `ids`.
   */
  async requireWritten(trx: Db, ctx: RequestContext, entity: EntityModel, ids: string[], message = `${entity.label}不存在！`): Promise<void> {
    const restriction = await this.restriction(trx, ctx, entity, false)
    if (!restriction || !ids.length) return
    const wanted = [...new Set(ids)]
    for (let at = 0; at < wanted.length; at += 1000) {
      const part = wanted.slice(at, at + 1000)
      const found = await this.narrowed(trx, entity, restriction).select('t.id').where('t.id', 'in', part).execute()
      if (found.length !== part.length) throw notFound(message)
    }
  }

  private multiRefField(entity: EntityModel, name: string): FieldModel | undefined {
    const f = entity.byName.get(name)
    return f && f.type === 'ref' && f.multiple ? f : undefined
  }

  /** Rows to wire records: codec, ref labels, multiple refs, hooks. */
  async answer(db: Db, ctx: RequestContext, entity: EntityModel, rows: Row[]): Promise<Wire[]> {
    // The joined ref labels (`__<field>`), the same in every row of one statement.
    const labels = rows.length
      ? entity.fields.flatMap((f) => [
          ...(`__${f.name}` in rows[0] ? [[`__${f.name}`, refLabelProperty(f.name)]] : []),
          ...(`__code_${f.name}` in rows[0] ? [[`__code_${f.name}`, refCodeProperty(f.name)]] : []),
        ])
      : []
    const out = rows.map((row) => {
      const wire = this.codec.fromRow(entity, row)
      for (const [column, property] of labels) wire[property] = row[column] ?? null
      return wire
    })
    const ids = out.map((r) => String(r.id))
    for (const f of this.multiRefs(entity)) {
      const target = this.registry.get(f.ref as string)
      const links = ids.length
        ? await db
            .selectFrom(`${linkTable(entity, f)} as l`)
            .leftJoin(`${target.table} as r`, 'r.id', 'l.ref_id')
            .select(['l.owner_id', 'l.ref_id', `r.${this.labelColumn(target, f)} as label`])
            .where('l.owner_id', 'in', ids)
            .execute()
        : []
      for (const wire of out) {
        const mine = links.filter((l) => l.owner_id === wire.id)
        wire[f.name] = mine.map((l) => l.ref_id)
        wire[refLabelProperty(f.name)] = mine.map((l) => l.label).join('，')
      }
    }
    for (const h of this.hooks.of(entity.name)) await h.decorate?.(out, { db, ctx, entity })
    return out
  }

  async get(db: Db, ctx: RequestContext, entity: EntityModel, id: unknown): Promise<Wire> {
    if (isBlank(id) || typeof id !== 'string') throw invalid('请选择数据', 'id')
    const page = await this.list(db, ctx, entity, {
      params: [{ field: 'id', op: 'eq' }],
      values: { id, pageSize: 1 },
      paged: false,
    })
    if (!page.datas[0]) throw notFound(`${entity.label}不存在！`)
    return page.datas[0]
  }

  async loadByIds(db: Db, ctx: RequestContext, entity: EntityModel, ids: string[], columns?: readonly ListColumn[]) {
    if (!ids.length) return []
    const page = await this.list(db, ctx, entity, {
      params: [{ field: 'id', op: 'in' }],
      columns,
      values: { id: ids },
      paged: false,
    })
    return page.datas
  }

  private async checkUnique(trx: Db, entity: EntityModel, values: Wire, id?: string) {
    for (const f of entity.fields) {
      if (!f.uniqueMessage || isBlank(values[f.name])) continue
      // A message with {holder} names the record that has the value (its picker label: a menu's 名称).
      const holder = this.holderColumn(entity)
      let q = trx.selectFrom(entity.table).select(['id', `${holder} as holder`]).where(f.column, '=', this.codec.toColumn(f, values[f.name]))
      if (id) q = q.where('id', '<>', id)
      const taken = await q.executeTakeFirst()
      if (taken) throw invalid(takenMessage(f, String(taken.holder ?? '')), f.name)
    }
    for (const rule of entity.file.uniqueTogether ?? []) {
      const fields = rule.fields.map((n) => entity.byName.get(n) as FieldModel)
      if (fields.some((f) => isBlank(values[f.name]))) continue
      let q = trx.selectFrom(entity.table).select('id')
      for (const f of fields) q = q.where(f.column, '=', this.codec.toColumn(f, values[f.name]))
      if (id) q = q.where('id', '<>', id)
      if (await q.executeTakeFirst()) throw invalid(rule.message, fields[fields.length - 1].name)
    }
  }

  private async checkRefs(trx: Db, ctx: RequestContext, entity: EntityModel, values: Wire, id?: string) {
    for (const f of entity.fields) {
      if (f.type !== 'ref' || isBlank(values[f.name])) continue
      const target = this.registry.get(f.ref as string)
      if (target.scope !== entity.scope) continue
      const wanted = (f.multiple ? (values[f.name] as string[]) : [values[f.name] as string]).filter(Boolean)
      if (!wanted.length) continue
      const found = await this.visibleRows(trx, ctx, target, wanted)
      if (found.length !== new Set(wanted).size) throw invalid(`${f.label}不存在`, f.name)
      if (leafOnly(f, target) && (await this.parentsAmong(trx, target, wanted)).size) throw notLeaf(f)
      if (id && f.name === entity.parentField) {
        const below = await treeDescendants(trx, entity, id)
        if (below.includes(values[f.name] as string)) throw invalid(`${f.label}不能是自身或下级`, f.name)
      }
    }
  }

  /**
   * The part of a write's validation and completion that needs no database (defaults, derived codes,
   * the form's rules, immutable fields, password hashes): `values` to store and `merged`, the record
   * as it will be. The set-based import (import/batch.ts) runs it for a batch of rows, then checks
   * uniqueness and references for the whole batch at once.
   */
  async prepareRecord(entity: EntityModel, body: Wire, mode: 'create' | 'modify', existing?: Wire): Promise<{ values: Wire; merged: Wire }> {
    const { fields, defaults, derived, passwords, immutables } = writeShape(entity)
    const values: Wire = {}
    for (const f of fields) if (Object.prototype.hasOwnProperty.call(body, f.name)) values[f.name] = body[f.name]
    if (mode === 'create') {
      for (const f of defaults) if (values[f.name] === undefined) values[f.name] = f.default
    }
    for (const f of derived) {
      if (isBlank(values[f.name]) && !isBlank(values[f.derive!.from]))
        values[f.name] = deriveRules[f.derive!.rule](String(values[f.derive!.from])).slice(0, f.maxLength ?? 20)
    }
    const merged = mode === 'modify' ? { ...existing, ...values } : values
    if (mode === 'modify') for (const f of passwords) if (isBlank(values[f.name])) delete merged[f.name]
    const errors = validateRecord(entity, merged, this.registry.enums, mode)
    if (errors.length) throw invalid(errors[0].message, errors[0].field)
    if (mode === 'modify' && existing) {
      for (const f of immutables) {
        if (!(f.name in values)) continue
        const before = this.codec.toColumn(f, existing[f.name])
        const after = this.codec.toColumn(f, values[f.name])
        if (String(before ?? '') !== String(after ?? '')) throw invalid(`${f.label}创建后不允许修改`, f.name)
      }
    }
    for (const f of passwords) {
      if (isBlank(values[f.name])) delete values[f.name]
      else values[f.name] = await hashPassword(String(values[f.name]))
    }
    return { values, merged }
  }

  /** The names of a dictionary's enabled items: the choices of a field that declares it (`dictionary`). */
  async dictionaryChoices(trx: Db, code: string): Promise<Set<string>> {
    const [dic, item] = [this.registry.get('dic'), this.registry.get('dicItem')]
    const rows = await trx
      .selectFrom(`${item.table} as i`)
      .innerJoin(`${dic.table} as d`, 'd.id', 'i.dic_id')
      .select('i.name')
      .where('d.code', '=', code)
      .where('i.available', '=', this.codec.toColumn(item.byName.get('available') as FieldModel, true))
      .execute()
    return new Set(rows.map((r) => String(r.name)))
  }

  /**
   * A field offering a dictionary's items takes a new value only from its enabled items (by name);
   * a value kept from before (free text of an older release, an item since disabled) may stay.
   */
  private async checkDictionaries(trx: Db, entity: EntityModel, values: Wire, existing?: Wire) {
    for (const f of entity.fields) {
      if (!f.dictionary || isBlank(values[f.name])) continue
      const value = String(values[f.name]).trim()
      if (existing && String(existing[f.name] ?? '').trim() === value) continue
      if (!(await this.dictionaryChoices(trx, f.dictionary)).has(value)) throw invalid(`${f.label}取值不正确`, f.name)
    }
  }

  /** Validates and completes a write; answers the values to store. */
  private async prepare(trx: Db, ctx: RequestContext, entity: EntityModel, body: Wire, mode: 'create' | 'modify', existing?: Wire) {
    const { values, merged } = await this.prepareRecord(entity, body, mode, existing)
    for (const f of entity.fields) {
      const given = values[f.name]
      if (f.writePermission && !isBlank(given) && !(Array.isArray(given) && !given.length) && !hasPermission(ctx, [f.writePermission])) throw forbidden()
    }
    await this.checkUnique(trx, entity, merged, existing?.id as string | undefined)
    await this.checkRefs(trx, ctx, entity, values, existing?.id as string | undefined)
    await this.checkDictionaries(trx, entity, values, existing)
    return values
  }

  /** The op log lives in the tenant database: inside the write's transaction unless the write is on the platform. */
  private logDb(trx: Db, ctx: RequestContext, entity: EntityModel): Db {
    return entity.scope === 'tenant' ? trx : ctx.db
  }

  private async writeLinks(trx: Db, entity: EntityModel, id: string, values: Wire) {
    for (const f of this.multiRefs(entity)) {
      if (!(f.name in values)) continue
      const table = linkTable(entity, f)
      await trx.deleteFrom(table).where('owner_id', '=', id).execute()
      const ids = [...new Set((values[f.name] as string[] | null) ?? [])]
      if (ids.length) await trx.insertInto(table).values(ids.map((ref) => ({ owner_id: id, ref_id: ref }))).execute()
    }
  }

  /**
   * Platform records may be given their id (a tenant's id is what users type before `@`); everything
   * else gets a time-ordered one.
   */
  private async newRecordId(trx: Db, entity: EntityModel, wanted: unknown): Promise<string> {
    if (entity.scope !== 'platform' || isBlank(wanted)) return newId()
    const id = String(wanted).trim()
    if (!/^[A-Za-z0-9_]{1,32}$/.test(id)) throw invalid('ID只能由字母、数字、下划线组成，长度不能超过32位', 'id')
    if (await trx.selectFrom(entity.table).select('id').where('id', '=', id).executeTakeFirst()) throw invalid(`${entity.label}ID已存在`, 'id')
    return id
  }

  /** The table row of a new record: its columns, id and audit columns (a batch of rows shares one `audit`). */
  newRow(entity: EntityModel, values: Wire, id: string, audit: ReturnType<typeof auditColumns>, fields = writableFields(entity)): Row {
    // Assigned onto the codec's row rather than spread into a new object: an import makes a million.
    return Object.assign(this.codec.toRow(values, fields), { id }, audit)
  }

  /**
   * `write.logged: false` leaves out the record's own op-log row: an import logs itself once
   * (`导入{label}` with its counts, as the ancestor's one logged call), not once per row of a million.
   */
  async create(trx: Db, ctx: RequestContext, entity: EntityModel, body: Wire, write: WriteOptions = {}): Promise<string> {
    const values = await this.prepare(trx, ctx, entity, body, 'create')
    for (const h of this.hooks.of(entity.name)) await h.beforeSave?.({ trx, ctx, entity, mode: 'create', values })
    const id = await this.newRecordId(trx, entity, body.id)
    await trx.insertInto(entity.table).values(this.newRow(entity, values, id, auditColumns(ctx))).execute()
    await this.writeLinks(trx, entity, id, values)
    for (const h of this.hooks.of(entity.name)) await h.afterSave?.({ trx, ctx, entity, mode: 'create', values, id })
    await this.requireWritten(trx, ctx, entity, [id])
    if (write.logged !== false) await writeOpLog(this.logDb(trx, ctx, entity), ctx, `新增${entity.label}`, OpLogType.OTHER, { id })
    return id
  }

  async modify(trx: Db, ctx: RequestContext, entity: EntityModel, body: Wire, write: WriteOptions = {}): Promise<void> {
    const existing = await this.get(trx, ctx, entity, body.id)
    const scope = await this.scope(trx, ctx, entity)
    const values = await this.prepare(trx, ctx, entity, body, 'modify', existing)
    for (const h of this.hooks.of(entity.name)) await h.beforeSave?.({ trx, ctx, entity, mode: 'modify', values, existing })
    const id = String(existing.id)
    const done = await trx
      .updateTable(entity.table)
      .set({ ...this.codec.toRow(values, writableFields(entity)), ...updateColumns(ctx) })
      .where('id', '=', id)
      .where(scope)
      .executeTakeFirst()
    if (!Number(done.numUpdatedRows)) throw notFound(`${entity.label}不存在！`)
    await this.writeLinks(trx, entity, id, values)
    for (const h of this.hooks.of(entity.name)) await h.afterSave?.({ trx, ctx, entity, mode: 'modify', values, existing, id })
    await this.requireWritten(trx, ctx, entity, [id])
    if (write.logged !== false) await writeOpLog(this.logDb(trx, ctx, entity), ctx, `修改${entity.label}`, OpLogType.OTHER, { id })
  }

  /** Entities (same scope) whose single refs point at this one: deleting a referenced row is refused. */
  private referrers(entity: EntityModel): { entity: EntityModel; field: FieldModel }[] {
    const out: { entity: EntityModel; field: FieldModel }[] = []
    for (const other of this.registry.all()) {
      if (other.scope !== entity.scope) continue
      // A virtual ref is stored by its entity's hooks, which also clear it when the referenced row goes.
      for (const f of other.fields) if (f.type === 'ref' && f.ref === entity.name && !f.virtual) out.push({ entity: other, field: f })
    }
    return out
  }

  async remove(trx: Db, ctx: RequestContext, entity: EntityModel, ids: string[]): Promise<void> {
    if (!ids.length || ids.some((id) => typeof id !== 'string' || !id)) throw invalid('请选择要删除的数据', 'id')
    // First its own rows FOR UPDATE (id order): a write referencing one of them holds it FOR KEY SHARE until it
    // commits (visibleRows), so the guards below run after it and see its reference.
    await lockRows(trx, entity.table, ids)
    await this.requireRows(trx, ctx, entity, ids)
    const scope = await this.scope(trx, ctx, entity)
    for (const h of this.hooks.of(entity.name)) await h.beforeDelete?.({ trx, ctx, entity, ids })
    for (const guard of entity.file.api?.deleteGuard ?? []) {
      const other = this.registry.get(guard.entity)
      const f = other.byName.get(guard.field) as FieldModel
      const used = f.multiple
        ? await trx.selectFrom(linkTable(other, f)).select('owner_id').where('ref_id', 'in', ids).executeTakeFirst()
        : await trx.selectFrom(other.table).select('id').where(f.column, 'in', ids).executeTakeFirst()
      if (used) throw invalid(guard.message)
    }
    for (const { entity: other, field } of this.referrers(entity)) {
      const used = field.multiple
        ? await trx.selectFrom(linkTable(other, field)).select('owner_id').where('ref_id', 'in', ids).executeTakeFirst()
        : await trx.selectFrom(other.table).select('id').where(field.column, 'in', ids).executeTakeFirst()
      if (used) throw invalid(`${entity.label}已被${other.label}使用，不允许删除！`)
    }
    for (const f of this.multiRefs(entity)) await trx.deleteFrom(linkTable(entity, f)).where('owner_id', 'in', ids).execute()
    const done = await trx.deleteFrom(entity.table).where('id', 'in', ids).where(scope).executeTakeFirst()
    // A row that left the caller's scope (or vanished) since the check: the transaction rolls back.
    if (Number(done.numDeletedRows) !== new Set(ids).size) throw notFound(`${entity.label}不存在！`)
    await writeOpLog(this.logDb(trx, ctx, entity), ctx, `删除${entity.label}`, OpLogType.OTHER, { ids })
  }

  async setAvailable(trx: Db, ctx: RequestContext, entity: EntityModel, ids: string[], available: boolean) {
    const field = entity.byName.get('available')
    if (!field) throw invalid(`${entity.label}不支持启用/停用`)
    if (!ids.length || ids.some((id) => typeof id !== 'string' || !id)) throw invalid('请选择数据', 'ids')
    await this.requireRows(trx, ctx, entity, ids)
    const scope = await this.scope(trx, ctx, entity)
    for (const h of this.hooks.of(entity.name)) await h.beforeAvailable?.({ trx, ctx, entity, ids, available })
    const done = await trx
      .updateTable(entity.table)
      .set({ [field.column]: this.codec.toColumn(field, available), ...updateColumns(ctx) })
      .where('id', 'in', ids)
      .where(scope)
      .executeTakeFirst()
    if (Number(done.numUpdatedRows) !== new Set(ids).size) throw notFound(`${entity.label}不存在！`)
    // A permission on 状态 would otherwise let the caller switch a row out of their own scope.
    await this.requireWritten(trx, ctx, entity, ids)
    await writeOpLog(this.logDb(trx, ctx, entity), ctx, `${available ? '启用' : '停用'}${entity.label}`, OpLogType.OTHER, { ids })
  }
}
