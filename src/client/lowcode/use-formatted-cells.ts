import { useEffect, useState } from 'react'
import type { ListFieldConfig, ListRow } from './lowcode-wire.js'
import { runScriptMany } from './script-runner.js'

export const ROW_KEY = '__key'

/** `columnName` → row key → the text a formatter gave (or an error marker). */
export type FormattedCells = Map<string, Map<string, { text: string } | { error: string }>>

const asText = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v))

/**
 * Runs the formatter scripts of a page of rows in the sandbox: one batched call per formatter column
 * (domain-rules §2.11: `(cellValue, row)` gives the display value). Until the answer comes the raw
 * values show.
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
    // Rows travel without our own bookkeeping members.
    const plain = rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => k !== ROW_KEY && !Array.isArray(r[k]))))
    void Promise.all(
      withFormatter.map(async (f) => {
        const settled = await runScriptMany(f.formatter!, ['cellValue', 'row'], plain.map((r) => [r[f.columnName] ?? null, r]))
        const byRow = new Map<string, { text: string } | { error: string }>()
        settled.forEach((s, i) => byRow.set(String(rows[i][ROW_KEY]), s.ok ? { text: asText(s.value) } : { error: s.error }))
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
