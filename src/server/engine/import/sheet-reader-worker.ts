/**
 * The worker-thread side of sheet-reader.ts: counts the row elements of an .xlsx's sheet, reads its rows
 * (xlsx-rows.ts) and sends the header row with the count, then, once told the columns, the data rows as
 * batches of lines (import-lines.ts), never more than CREDIT batches ahead of the thread that writes them.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { lineBatches } from './lines.js'
import { openXlsx, type XlsxRow } from './xlsx-rows.js'
import type { ReaderMessage, WriterMessage } from './sheet-reader.js'

const port = parentPort
if (!port) throw new Error('sheet-reader-worker.ts must run as a worker thread')
const { file, skipSheet, credit } = workerData as { file: string; skipSheet: string; credit: number }

let credits = credit
let columns: ((c: number[]) => void) | undefined
let more: (() => void) | undefined
port.on('message', (m: WriterMessage) => {
  if (m.kind === 'columns') columns?.(m.columns)
  else if (m.kind === 'more') {
    credits++
    more?.()
  }
})
const send = (m: ReaderMessage) => port.postMessage(m)

async function read() {
  const book = await openXlsx(file)
  const sheet = book.sheets.find((s) => s.name !== skipSheet && s.state === 'visible')
  if (!sheet) return send({ kind: 'header' })
  // Counted before any row is read: the import checks its row cap against it before writing anything.
  const elements = await book.rowElements(sheet)
  const rows = book.rows(sheet)
  const first = await rows.next()
  if (first.done) return send({ kind: 'header' })
  send({ kind: 'header', line: first.value.line, cells: first.value.cells, bound: elements - 1 })
  const wanted = await new Promise<number[]>((resolve) => (columns = resolve))
  const rest: AsyncIterable<XlsxRow> = { [Symbol.asyncIterator]: () => rows }
  for await (const batch of lineBatches(rest, wanted)) {
    while (!credits) await new Promise<void>((resolve) => (more = resolve))
    credits--
    send({ kind: 'lines', ...batch })
  }
  send({ kind: 'end' })
}

read().catch((error: unknown) => send({ kind: 'error', message: error instanceof Error ? error.message : String(error) }))
