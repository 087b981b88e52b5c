import { useEffect, useState } from 'react'
import type { FormatterCell } from '../../shared/sandbox/script-kinds.js'

export interface FormattedCells {
  /** one text per cell once formatted; null while formatting or without a formatter */
  texts: string[] | null
  /** the Chinese message when the whole page failed (timeout, memory) */
  error: string | null
}

/**
 * React hook over formatCells: formats a column's cells whenever the formatter or the cells change.
 * The sandbox module (and its worker) is imported on first use only.
 */
export function useFormattedCells(source: string | null | undefined, cells: readonly FormatterCell[]): FormattedCells {
  const [state, setState] = useState<FormattedCells>({ texts: null, error: null })
  useEffect(() => {
    if (!source) {
      setState({ texts: null, error: null })
      return
    }
    let current = true
    setState({ texts: null, error: null })
    import('./script-runner.js')
      .then(({ formatCells }) => formatCells(source, cells))
      .then(
        (texts) => current && setState({ texts, error: null }),
        (e: unknown) => current && setState({ texts: null, error: e instanceof Error ? e.message : String(e) }),
      )
    return () => {
      current = false
    }
  }, [source, cells])
  return state
}
