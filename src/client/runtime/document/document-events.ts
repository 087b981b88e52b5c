import { useSyncExternalStore } from 'react'

/**
 * Saves and approvals made on a document page, so the document's list (another tab, kept mounted)
 * fetches its rows again.
 */
const versions = new Map<string, number>()
const listeners = new Set<() => void>()

export function documentsChanged(entityName: string): void {
  versions.set(entityName, (versions.get(entityName) ?? 0) + 1)
  for (const l of listeners) l()
}

export function useDocumentsVersion(entityName: string): number {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => versions.get(entityName) ?? 0,
  )
}
