import { useEffect, useRef } from 'react'
import { writeGeneration } from '../api/write-generation.js'
import { usePane } from './pane-context.js'

/**
 * Open tabs stay mounted while hidden, so what a hidden tab read can be out of date when it is shown
 * again: another tab approved, settled or saved meanwhile. Every write this browser makes counts one
 * generation (api/write-generation.ts); a read notes the generation when its tab is hidden, and when the
 * tab is shown again after a write it reads again. A tab that stayed shown was the one writing and
 * reloads itself as it always did.
 */
export function useFreshWhenShown(revalidate: () => unknown, enabled: boolean): void {
  const { shown } = usePane()
  const hiddenAt = useRef<number | null>(null)
  const latest = useRef(revalidate)
  latest.current = revalidate
  useEffect(() => {
    if (!shown) {
      hiddenAt.current = writeGeneration()
      return
    }
    const was = hiddenAt.current
    hiddenAt.current = null
    if (enabled && was !== null && was !== writeGeneration()) void latest.current()
  }, [shown, enabled])
}
