import { expressionBuilder, sql, type Expression, type SqlBool } from 'kysely'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import type { EntityRegistry } from './entity-registry.js'
import { linesEntityName } from '../../shared/metadata/document-model.js'

/**
 * The rows a document's picker offers when other documents follow it (`document.follows` of the
 * follower: receive sheet ← purchase order, sale out ← sale order, returns ← out sheets): only
 * sources a follower may still take from — in one of the follower's `statuses` and with a line whose
 * `limit` exceeds its `counter` (something left to receive, ship or return), as the follower's
 * loader answers. Several followers of one source: a row any of them may take. Undefined when no
 * document follows this one (every other picker is unchanged).
 */
export function followablePredicate(registry: EntityRegistry, source: EntityModel): Expression<SqlBool> | undefined {
  const links = registry
    .documents()
    .flatMap((d) => (d.file.document?.follows?.document === source.name ? [d.file.document.follows] : []))
  if (!links.length) return undefined
  const lines = registry.get(linesEntityName(source.name))
  const parent = lines.byName.get(source.file.document!.lines.parentField)!.column
  const status = source.byName.get('status')!.column
  // Built as a query (not raw text) so that the tenant's schema reaches the subquery's table on PostgreSQL.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const eb = expressionBuilder<any, any>()
  return eb.or(
    links.map((link) => {
      const limit = lines.byName.get(link.limit ?? 'orderNum')!.column
      const counter = lines.byName.get(link.counter)!.column
      return eb.and([
        eb(`t.${status}`, 'in', link.statuses),
        eb.exists(
          eb
            .selectFrom(`${lines.table} as fl`)
            .select(sql.lit(1).as('one'))
            .whereRef(`fl.${parent}`, '=', 't.id')
            .where(sql<SqlBool>`${sql.ref(`fl.${limit}`)} > coalesce(${sql.ref(`fl.${counter}`)}, 0)`),
        ),
      ])
    }),
  )
}
