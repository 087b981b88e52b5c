import { useEffect, useState } from 'react'
import type { ListFieldConfig, ListRow } from '../../shared/contracts/lowcode-wire.js'
import { formatCells } from '../sandbox/script-runner.js'

export const ROW_KEY = '__key'

/** `columnName` → row key → the text its formatter gave. */
export type FormattedCells = Map<string, Map<string, { text: string } | { error: string }>>

/**
 * Runs the formatter scripts of a page of rows in the sandbox: one batched call per formatter column
 * (domain-rules §2.11: `(cellValue, row)` gives the display value). Until the answer comes the raw
 * values show; a column whose batch fails marks its cells with the error.
 */
export function useFormattedCells(fields: readonly ListFieldConfig[], rows: readonly ListRow[]): FormattedCells {
  const [cells, setCells] = useState<FormattedCells>(new Map())
  useEffect(() => {
    let live = true
    const withFormatter = fields.filter((f) => f.formatter?.trim() && !f.fixEnum)
    if (!withFormatter.length || !rows.length) {
      setCells(new Map())
      return
    }
    // Rows travel without our own bookkeeping members (row keys, nested tree children).
    const plain = rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k, v]) => k !== ROW_KEY && !Array.isArray(v))))
    void Promise.all(
      withFormatter.map(async (f) => {
        const byRow = new Map<string, { text: string } | { error: string }>()
        try {
          const texts = await formatCells(f.formatter!, plain.map((row) => ({ value: row[f.columnName] ?? null, row })))
          texts.forEach((text, i) => byRow.set(String(rows[i][ROW_KEY]), { text }))
        } catch (e) {
          const error = e instanceof Error ? e.message : String(e)
          rows.forEach((r) => byRow.set(String(r[ROW_KEY]), { error }))
        }
        return [f.columnName, byRow] as const
      }),
    ).then((entries) => {
      if (live) setCells(new Map(entries))
    })
    return () => {
      live = false
    }
  }, [fields, rows])
  return cells
}
