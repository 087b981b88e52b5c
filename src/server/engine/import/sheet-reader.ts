import { startWorker } from '../../platform/worker-entry.js'
import { lineBatches, type LineBatch } from './lines.js'
import type { XlsxRow } from './xlsx-rows.js'

/**
 * The first data sheet of an import file, read as its header row and then batches of lines
 * (import-lines.ts). An .xlsx is read in a worker thread (sheet-reader-worker.ts), so reading a
 * million rows (inflating, tokenizing the XML, making the lines) runs on the second core while the
 * import writes the rows already read; an .xls (SheetJS, at most 65,536 rows) is read in process.
 */
export interface SheetSource {
  /**
   * The first row with content and, when known before the rows are read, a bound of the rows after it
   * (blank ones included); undefined: no rows.
   */
  header(): Promise<{ line: number; cells: string[]; bound?: number } | undefined>
  /** The rows after the header, with only the given 1-based columns, blank rows left out. Read once. */
  lines(columns: number[]): AsyncGenerator<LineBatch>
  /** Stops reading (idempotent). */
  close(): void
}

/** What the reader's worker sends. */
export type ReaderMessage =
  | { kind: 'header'; line?: number; cells?: string[]; bound?: number }
  | ({ kind: 'lines' } & LineBatch)
  | { kind: 'end' }
  | { kind: 'error'; message: string }
/** What the writing thread sends: the columns to take, and one more batch wanted. */
export type WriterMessage = { kind: 'columns'; columns: number[] } | { kind: 'more' }

const WORKER = new URL('./sheet-reader-worker.ts', import.meta.url)
/** Batches read ahead of the writer: enough to keep it busy, little to hold (a batch is ~1,000 rows). */
const CREDIT = 8

/** An .xlsx read in a worker thread; the first visible sheet not named `skipSheet` is read. */
export function workerSheet(file: string, skipSheet: string): SheetSource {
  const worker = startWorker(WORKER, {
    workerData: { file, skipSheet, credit: CREDIT },
    resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 },
  })
  worker.unref()
  const queue: ReaderMessage[] = []
  let wake: (() => void) | undefined
  const push = (m: ReaderMessage) => {
    queue.push(m)
    wake?.()
    wake = undefined
  }
  worker.on('message', push)
  worker.on('error', (e) => push({ kind: 'error', message: e.message }))
  worker.on('exit', (code) => push({ kind: 'error', message: `sheet reader stopped (${code})` }))
  const next = async (): Promise<ReaderMessage> => {
    while (!queue.length) await new Promise<void>((resolve) => (wake = resolve))
    return queue.shift()!
  }
  const unexpected = (m: ReaderMessage) => new Error(m.kind === 'error' ? m.message : `sheet reader: unexpected ${m.kind}`)
  return {
    async header() {
      const m = await next()
      if (m.kind !== 'header') throw unexpected(m)
      return m.line === undefined ? undefined : { line: m.line, cells: m.cells ?? [], bound: m.bound }
    },
    async *lines(columns) {
      worker.postMessage({ kind: 'columns', columns } satisfies WriterMessage)
      for (;;) {
        const m = await next()
        if (m.kind === 'end') return
        if (m.kind !== 'lines') throw unexpected(m)
        worker.postMessage({ kind: 'more' } satisfies WriterMessage)
        yield { text: m.text, count: m.count }
      }
    },
    close() {
      worker.removeAllListeners('exit')
      void worker.terminate()
    },
  }
}

/** Rows read in process (an .xls). */
export function localSheet(rows: AsyncGenerator<XlsxRow>): SheetSource {
  return {
    async header() {
      const first = await rows.next()
      return first.done ? undefined : { line: first.value.line, cells: first.value.cells }
    },
    lines: (columns) => lineBatches({ [Symbol.asyncIterator]: () => rows }, columns),
    close() {
      void rows.return(undefined)
    },
  }
}
