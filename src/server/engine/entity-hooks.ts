import type { Expression, SqlBool } from 'kysely'
import type { Db } from '../db/dialect.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import type { RequestContext } from '../platform/request-context.js'
import type { Wire } from './record-codec.js'

export interface WriteEvent {
  trx: Db
  ctx: RequestContext
  entity: EntityModel
  mode: 'create' | 'modify'
  /** Validated wire values about to be written (hooks may adjust them). */
  values: Wire
  /** The stored record before a modify. */
  existing?: Wire
}

/**
 * Hand-written rules an entity file cannot say (an `admin` role cannot be disabled, a new tenant gets
 * its database). Modules register them by entity name; the generic family calls them inside its
 * transaction, so a hook that throws rolls the whole write back.
 */
export interface EntityHooks {
  beforeSave?(e: WriteEvent): Promise<void>
  afterSave?(e: WriteEvent & { id: string }): Promise<void>
  /**
   * The create side of beforeSave/afterSave reads and writes only the record itself and its own lines
   * (never other rows of its table), so the set-based import (import/batch.ts) may run them row by row
   * around one multi-row INSERT of a batch. Entities with save hooks without it are imported row by row.
   */
  rowLocal?: boolean
  beforeDelete?(e: { trx: Db; ctx: RequestContext; entity: EntityModel; ids: string[] }): Promise<void>
  beforeAvailable?(e: { trx: Db; ctx: RequestContext; entity: EntityModel; ids: string[]; available: boolean }): Promise<void>
  /**
   * A row predicate over the entity's table aliased `t` (ownership: a row is its owner's and the
   * colleagues' it is shared with); EntityStore.rows adds it under every list, get, load and write, and
   * the custom lists under every table they read (EntityStore.restrictedTable). May read the database
   * first (a rule that depends on the caller's departments).
   */
  restrictRows?(e: { db: Db; ctx: RequestContext; entity: EntityModel }): Expression<SqlBool> | undefined | Promise<Expression<SqlBool> | undefined>
  /** Adds computed properties to answered rows (list, get, selector). */
  decorate?(rows: Wire[], e: { db: Db; ctx: RequestContext; entity: EntityModel }): Promise<void>
}

export class HookRegistry {
  private readonly hooks = new Map<string, EntityHooks[]>()

  on(entityName: string, hooks: EntityHooks): void {
    this.hooks.set(entityName, [...(this.hooks.get(entityName) ?? []), hooks])
  }

  of(entityName: string): EntityHooks[] {
    return this.hooks.get(entityName) ?? []
  }
}
