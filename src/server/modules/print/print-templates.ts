import type { Db } from '../../db/dialect.js'
import { isPostgres } from '../../db/exact-decimal.js'
import { invalid, notFound } from '../../platform/errors.js'
import { auditColumns, updateColumns } from '../../platform/audit-columns.js'
import { newId } from '../../platform/ids.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { PrintTemplateContent } from '../../../shared/print/print-template.js'

export const TEMPLATE_TABLE = 'sys_print_template'
export const VERSION_TABLE = 'sys_print_template_version'

/** A stored template's row (snake_case columns as read). */
export interface TemplateRow {
  id: string
  kind: string
  name: string
  isDefault: boolean
  version: number
  updateBy: string | null
  updateTime: string | null
}

const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true'
/** A boolean column's value: PostgreSQL booleans, SQLite integers (entity-tables.ts). */
const flag = (db: Db, on: boolean) => (isPostgres(db) ? on : on ? 1 : 0) as never

function rowOf(r: Record<string, unknown>): TemplateRow {
  return {
    id: String(r.id),
    kind: String(r.kind),
    name: String(r.name),
    isDefault: truthy(r.is_default),
    version: Number(r.version),
    updateBy: r.update_by == null ? null : String(r.update_by),
    updateTime: r.update_time == null ? null : String(r.update_time),
  }
}

export async function listTemplates(db: Db, kind?: string): Promise<TemplateRow[]> {
  let q = db.selectFrom(TEMPLATE_TABLE).selectAll()
  if (kind) q = q.where('kind', '=', kind)
  const rows = await q.orderBy('kind').orderBy('create_time').orderBy('id').execute()
  return rows.map((r) => rowOf(r as Record<string, unknown>))
}

export async function templateRow(db: Db, id: unknown): Promise<TemplateRow> {
  if (typeof id !== 'string' || !id) throw invalid('请选择打印模板', 'id')
  const r = await db.selectFrom(TEMPLATE_TABLE).selectAll().where('id', '=', id).executeTakeFirst()
  if (!r) throw notFound('打印模板不存在！')
  return rowOf(r as Record<string, unknown>)
}

/** The layout of one version (the current one unless asked); versions are never changed once written. */
export async function templateContent(db: Db, row: TemplateRow, version?: unknown): Promise<{ version: number; content: PrintTemplateContent }> {
  const wanted = version === undefined || version === '' || version === null ? row.version : Number(version)
  if (!Number.isInteger(wanted) || wanted < 1) throw invalid('打印模板版本不正确', 'version')
  const v = await db.selectFrom(VERSION_TABLE).select('content').where('template_id', '=', row.id).where('version', '=', wanted).executeTakeFirst()
  if (!v) throw notFound('打印模板版本不存在！')
  return { version: wanted, content: JSON.parse(String(v.content)) as PrintTemplateContent }
}

/** The kind's default template, if the tenant made one. */
export async function defaultTemplate(db: Db, kind: string): Promise<TemplateRow | undefined> {
  const r = await db.selectFrom(TEMPLATE_TABLE).selectAll().where('kind', '=', kind).where('is_default', '=', flag(db, true)).executeTakeFirst()
  return r ? rowOf(r as Record<string, unknown>) : undefined
}

function insertVersion(trx: Db, ctx: RequestContext, templateId: string, version: number, content: PrintTemplateContent) {
  return trx
    .insertInto(VERSION_TABLE)
    .values({ id: newId(), template_id: templateId, version, content: JSON.stringify(content), ...auditColumns(ctx) })
    .execute()
}

/** Makes `id` the kind's only default: others lose the mark in the same transaction. */
export async function markDefault(trx: Db, ctx: RequestContext, kind: string, id: string): Promise<void> {
  await trx.updateTable(TEMPLATE_TABLE).set({ is_default: flag(trx, false), ...updateColumns(ctx) }).where('kind', '=', kind).where('id', '!=', id).where('is_default', '=', flag(trx, true)).execute()
  await trx.updateTable(TEMPLATE_TABLE).set({ is_default: flag(trx, true), ...updateColumns(ctx) }).where('id', '=', id).execute()
}

/** A new template at version 1; the kind's first template becomes its default. */
export async function createTemplate(trx: Db, ctx: RequestContext, kind: string, name: string, isDefault: boolean, content: PrintTemplateContent): Promise<string> {
  const id = newId()
  const first = !(await trx.selectFrom(TEMPLATE_TABLE).select('id').where('kind', '=', kind).executeTakeFirst())
  await trx.insertInto(TEMPLATE_TABLE).values({ id, kind, name, is_default: flag(trx, false), version: 1, ...auditColumns(ctx) }).execute()
  await insertVersion(trx, ctx, id, 1, content)
  if (isDefault || first) await markDefault(trx, ctx, kind, id)
  return id
}

/**
 * Saves a new version over the one the editor started from: one guarded update (`version = expected`)
 * moves the current version on, so of two editors saving over the same version the second is refused
 * and nothing of it is written.
 */
export async function saveVersion(trx: Db, ctx: RequestContext, row: TemplateRow, expected: number, name: string, content: PrintTemplateContent): Promise<number> {
  const moved = await trx
    .updateTable(TEMPLATE_TABLE)
    .set((eb) => ({ version: eb('version', '+', 1), name, ...updateColumns(ctx) }))
    .where('id', '=', row.id)
    .where('version', '=', expected)
    .returning('version')
    .executeTakeFirst()
  if (!moved) throw invalid('打印模板已被他人修改，请刷新后重试')
  const version = Number(moved.version)
  await insertVersion(trx, ctx, row.id, version, content)
  return version
}
