import { useEffect } from 'react'
import { usePane } from './pane-context.js'

/**
 * Tabs holding input that is not saved (a document with typed header fields or lines). Closing such a
 * tab, or opening 新增 afresh over it, asks first (shell/PageTabs, shell/ShellLayout).
 */
const dirtyTabs = new Set<string>()

export const isTabDirty = (key: string): boolean => dirtyTabs.has(key)

/** Reports whether the page's tab holds unsaved input; the report ends with the page. */
export function useTabDirty(dirty: boolean): void {
  const { key } = usePane()
  useEffect(() => {
    if (!key) return
    if (dirty) dirtyTabs.add(key)
    else dirtyTabs.delete(key)
    return () => {
      dirtyTabs.delete(key)
    }
  }, [key, dirty])
}
