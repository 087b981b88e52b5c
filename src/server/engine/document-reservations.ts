import { sql } from 'kysely'
import type { Db } from '../db/dialect.js'
import type { FieldModel } from '../../shared/metadata/entity-model.js'
import { isBlank } from '../../shared/metadata/validate-record.js'
import { invalid } from '../platform/errors.js'
import type { EntityRegistry } from './entity-registry.js'
import type { DocumentModel } from './document-kind.js'
import type { Wire } from './record-codec.js'

/** Each declared reservation with its columns resolved: the line's quantity and the source line's counter and limit. */
function rules(registry: EntityRegistry, doc: DocumentModel) {
  return (doc.section.lines.reserve ?? []).map((rule) => {
    const field = doc.lines.byName.get(rule.field) as FieldModel
    const source = registry.get(field.ref as string)
    const column = (name: string) => source.byName.get(name)?.column ?? name
    return { rule, field, source, counter: column(rule.counter), limit: column(rule.limit), num: rule.num ?? doc.section.totals?.num ?? 'num' }
  })
}

/** The lines that name a source line, in source line id order (the lock order, platform/db-tx.ts). */
function linked(lines: Wire[], field: FieldModel): Wire[] {
  const sourceOf = (line: Wire) => String(line[field.name])
  return lines.filter((line) => !isBlank(line[field.name])).sort((a, b) => (sourceOf(a) < sourceOf(b) ? -1 : sourceOf(a) > sourceOf(b) ? 1 : 0))
}

/** Locks (PostgreSQL) the source lines `lines` reserve, in id order, before any of them changes. */
export async function lockReservations(trx: Db, registry: EntityRegistry, doc: DocumentModel, lines: Wire[]) {
  for (const { field, source } of rules(registry, doc)) {
    const ids = [...new Set(linked(lines, field).map((line) => String(line[field.name])))]
    if (ids.length) await trx.selectFrom(source.table).select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute()
  }
}

/**
 * Reserves each linked line's quantity on its source line (receive → purchase order line, return →
 * receive line…): one guarded UPDATE per line, in source line id order, so two documents can never take
 * the same remainder nor wait on each other's source lines in opposite orders.
 */
export async function reserveLines(trx: Db, registry: EntityRegistry, doc: DocumentModel, lines: Wire[]) {
  for (const { rule, field, source, counter, limit, num } of rules(registry, doc)) {
    for (const line of linked(lines, field)) {
      const sourceId = line[field.name]
      const n = Number(line[num] ?? 0)
      const done = await trx
        .updateTable(source.table)
        .set({ [counter]: sql`${sql.ref(counter)} + ${n}` })
        .where('id', '=', String(sourceId))
        .where(sql<boolean>`${sql.ref(limit)} - ${sql.ref(counter)} >= ${n}`)
        .executeTakeFirst()
      if (Number(done.numUpdatedRows)) continue
      const row = await trx
        .selectFrom(`${source.table} as s`)
        .leftJoin('base_data_product as p', 'p.id', 's.product_id')
        .select([`s.${limit} as lim`, `s.${counter} as used`, 'p.code', 'p.name'])
        .where('s.id', '=', String(sourceId))
        .executeTakeFirst()
      if (!row) throw invalid(`${field.label}不存在`, field.name)
      const remain = String(Number(row.lim) - Number(row.used))
      throw invalid(rule.message.replaceAll('{code}', String(row.code ?? '')).replaceAll('{name}', String(row.name ?? '')).replaceAll('{remain}', remain))
    }
  }
}

/** Gives the stored lines' quantities back to their source lines (modify, delete). */
export async function releaseReservations(trx: Db, registry: EntityRegistry, doc: DocumentModel, lines: Wire[]) {
  for (const { field, source, counter, num } of rules(registry, doc)) {
    for (const line of linked(lines, field)) {
      await trx
        .updateTable(source.table)
        .set({ [counter]: sql`${sql.ref(counter)} - ${Number(line[num] ?? 0)}` })
        .where('id', '=', String(line[field.name]))
        .execute()
    }
  }
}
