import type { XlsxRow } from './xlsx-rows.js'

/**
 * The data rows of an import file as the lines the import reads back: one JSON array `[line, ...cells]`
 * per row, the cells of the file's mapped columns in column order, blank rows left out. Made where the
 * sheet is read (the .xlsx reader's worker thread, or in process for an .xls), in batches, so what
 * crosses to the writing thread is one string per batch.
 */

/** Rows per batch of lines. */
export const LINES_PER_BATCH = 1000

export interface LineBatch {
  /** `count` lines, each ending with a newline. */
  text: string
  count: number
}

/** Batches of lines of `rows`, taking the 1-based `columns` of each. */
export async function* lineBatches(rows: AsyncIterable<XlsxRow>, columns: number[]): AsyncGenerator<LineBatch> {
  let text = ''
  let count = 0
  for await (const row of rows) {
    const cells = columns.map((c) => row.cells[c - 1] ?? '')
    if (!cells.some(Boolean)) continue
    text += JSON.stringify([row.line, ...cells]) + '\n'
    if (++count === LINES_PER_BATCH) {
      yield { text, count }
      text = ''
      count = 0
    }
  }
  if (count) yield { text, count }
}

/** The lines of a batch's text (or of a piece of the spool file), each parsed. */
export function* parseLines(text: string): Generator<[number, ...string[]]> {
  for (let at = 0, end = text.indexOf('\n'); end >= 0; at = end + 1, end = text.indexOf('\n', at))
    if (end > at) yield JSON.parse(text.slice(at, end)) as [number, ...string[]]
}
