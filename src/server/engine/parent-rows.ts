import { sql, type SqlBool } from 'kysely'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import type { EntityHooks } from './entity-hooks.js'
import type { EntityStore } from './entity-store.js'

/**
 * The row rule of rows that belong to a parent row (a contract's attachments, a customer's owner
 * history, a workbook's content): the caller reads those whose parent, named by `column`, the caller
 * may read. Their own routes reach them through the parent; this carries the rule to every other read
 * of the table (the custom lists).
 */
export function followsParent(store: EntityStore, parent: EntityModel, column: string): EntityHooks {
  return {
    async restrictRows({ db, ctx }) {
      const visible = await store.visibleIds(db, ctx, parent)
      return visible && sql<SqlBool>`${sql.ref(`t.${column}`)} in (${visible})`
    },
  }
}
