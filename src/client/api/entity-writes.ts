/**
 * Who must hear that records of an entity were written from this browser: screens that draw something
 * else from them (the shell's menu tree from `menu`, an open custom list from its `genCustomList`)
 * revalidate their caches, so a saved change shows without a reload.
 */
type Listener = () => void

const listeners = new Map<string, Set<Listener>>()

export function onEntityWritten(entityName: string, listener: Listener): () => void {
  let set = listeners.get(entityName)
  if (!set) listeners.set(entityName, (set = new Set()))
  set.add(listener)
  return () => set.delete(listener)
}

export function entityWritten(entityName: string): void {
  for (const listener of listeners.get(entityName) ?? []) listener()
}
