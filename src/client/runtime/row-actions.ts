import { useSyncExternalStore, type ReactNode } from 'react'
import type { EntityRow } from './entity-api.js'

/**
 * What a custom row action (`{key, label, permission}` in `views.list.row`) does. It may act at once
 * (call an API, then `reload()`), or answer a node (typically a dialog) that the list renders until
 * `close()` is called.
 */
export type RowActionHandler = (row: EntityRow, reload: () => void, close: () => void) => ReactNode | void

const handlers = new Map<string, RowActionHandler>()
const listeners = new Set<() => void>()
let version = 0

const keyOf = (entityName: string, key: string) => `${entityName}:${key}`

/**
 * Registers the behaviour of a custom row action. Feature modules register at import time, which
 * may be after a list has rendered, so lists subscribe and show the link once it has a handler.
 */
export function registerRowAction(entityName: string, key: string, handler: RowActionHandler): () => void {
  const k = keyOf(entityName, key)
  handlers.set(k, handler)
  version++
  for (const l of listeners) l()
  return () => {
    if (handlers.get(k) !== handler) return
    handlers.delete(k)
    version++
    for (const l of listeners) l()
  }
}

export function rowActionHandler(entityName: string, key: string): RowActionHandler | undefined {
  return handlers.get(keyOf(entityName, key))
}

/** Re-renders the caller when handlers are registered or removed. */
export function useRowActionRegistry(): number {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => version,
  )
}

/** A declared action's `when` (views.list.row): the row states it is offered in. */
export interface ActionWhen {
  field: string
  in?: readonly (string | number)[]
  notIn?: readonly (string | number)[]
}

/** Whether an action is offered on a row; values compare as text (an enum code may come as 3 or '3'). */
export function actionOffered(when: ActionWhen, row: EntityRow): boolean {
  const value = String(row[when.field] ?? '')
  const has = (list: readonly (string | number)[]) => list.some((v) => String(v) === value)
  return (!when.in || has(when.in)) && (!when.notIn || !has(when.notIn))
}
