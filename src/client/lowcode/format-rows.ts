import type { ListFieldConfig, ListRow } from '../../shared/contracts/lowcode-wire.js'
import { formatCells } from '../sandbox/script-runner.js'

/** The key of a custom list's row: its id column's value, else its place in the answer. */
export const ROW_KEY = '__key'
/** Where a row keeps the texts its formatters gave, by `columnName`. */
export const FORMATTED = '__formatted'

export type FormattedCell = { text: string } | { error: string }

/** A row without our bookkeeping members (key, formatted texts, nested tree children): what scripts see. */
export const plainRow = (row: ListRow): ListRow => Object.fromEntries(Object.entries(row).filter(([k, v]) => k !== ROW_KEY && k !== FORMATTED && !Array.isArray(v)))

/** The formatted cell of a row's column, if its field has a formatter. */
export const formattedCell = (row: ListRow, columnName: string): FormattedCell | undefined =>
  (row[FORMATTED] as Record<string, FormattedCell> | undefined)?.[columnName]

/**
 * Makes the fetched rows of a custom list ready to show: keyed, and with the texts of its formatter
 * scripts, run in the sandbox in one batched call per formatter column (domain-rules §2.11: `(cellValue,
 * row)` gives the display value). A column whose batch fails marks its cells with the error.
 */
export async function formatRows(fields: readonly ListFieldConfig[], idColumn: string | undefined, rows: readonly ListRow[]): Promise<ListRow[]> {
  const keyed = rows.map((r, i) => ({ ...r, [ROW_KEY]: idColumn && r[idColumn] != null ? String(r[idColumn]) : String(i) }))
  const withFormatter = fields.filter((f) => f.formatter?.trim() && !f.fixEnum)
  if (!withFormatter.length || !keyed.length) return keyed
  const plain = keyed.map(plainRow)
  const columns = await Promise.all(
    withFormatter.map(async (f): Promise<[string, FormattedCell[]]> => {
      try {
        const texts = await formatCells(f.formatter!, plain.map((row) => ({ value: row[f.columnName] ?? null, row })))
        return [f.columnName, texts.map((text) => ({ text }))]
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e)
        return [f.columnName, keyed.map(() => ({ error }))]
      }
    }),
  )
  return keyed.map((row, i) => ({ ...row, [FORMATTED]: Object.fromEntries(columns.map(([name, cells]) => [name, cells[i]])) }))
}
