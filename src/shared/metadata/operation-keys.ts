import type { Action } from '../generated/entity.js'
import type { EntityModel } from './entity-model.js'

/**
 * The calls of an entity's API family (`api.operations`), plus `import`: the Excel import
 * (`{base}/import`, `{base}/import/template`), offered where the list toolbar has `import`.
 */
export type Operation = 'query' | 'get' | 'create' | 'modify' | 'delete' | 'enable' | 'unable' | 'export' | 'trees' | 'import'

/** What the entity schema promises when `api.operations` is absent: all but export and trees. */
const DEFAULT_OPERATIONS: Operation[] = ['query', 'get', 'create', 'modify', 'delete', 'enable', 'unable']

/** Permission suffix of each operation; enable/disable are modifications, reading one row is a query. */
const ACTION_OF: Record<Operation, string> = {
  query: 'query',
  get: 'query',
  trees: 'query',
  create: 'add',
  modify: 'modify',
  delete: 'delete',
  enable: 'modify',
  unable: 'modify',
  export: 'export',
  import: 'import',
}

export type BuiltinAction = Extract<Action, string>

/** The call behind each built-in list action. */
export const ACTION_OPERATION: Record<BuiltinAction, Operation> = {
  add: 'create',
  modify: 'modify',
  detail: 'get',
  delete: 'delete',
  enableBatch: 'enable',
  unableBatch: 'unable',
  deleteBatch: 'delete',
  export: 'export',
  import: 'import',
}

export function hasOperation(entity: EntityModel, op: Operation): boolean {
  const api = entity.file.api
  if (!api) return false
  // `api.operations` has no import value: the list toolbar's `import` action is the declaration.
  if (op === 'import') return (entity.file.views?.list?.toolbar ?? []).includes('import')
  return ((api.operations as Operation[] | undefined) ?? DEFAULT_OPERATIONS).includes(op)
}

/**
 * Keys that allow an operation, in the same way the server checks them (any one passes): the
 * declared override or `{prefix}:{action}`. Reading one record is also allowed to whoever may
 * modify it, because the modify dialog loads the record first.
 */
export function operationKeys(entity: EntityModel, op: Operation): string[] {
  const api = entity.file.api
  if (!api) return []
  const override = api.permissions?.[op]
  if (override) return [override]
  const key = `${api.permission}:${ACTION_OF[op]}`
  return op === 'get' ? [key, `${api.permission}:modify`] : [key]
}
