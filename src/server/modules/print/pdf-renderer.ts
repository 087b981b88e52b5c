import type { Worker } from 'node:worker_threads'
import { startWorker } from '../../platform/worker-entry.js'
import type { PrintSchema } from '../../../shared/print/print-template.js'
import type { PdfAnswer, PdfPage, PdfRequest } from './pdf-worker-protocol.js'

const WORKER = new URL('./pdf-worker.ts', import.meta.url)

/** A request before it is numbered. */
type Unsent = PdfRequest extends infer R ? (R extends PdfRequest ? Omit<R, 'id'> : never) : never

/** pdfme's work, done elsewhere than the request's thread (render-pdf.ts). */
export interface PdfEngine {
  heights(table: PrintSchema, page: PdfPage, cells: string[]): Promise<number[][]>
  generate(request: Omit<Extract<PdfRequest, { kind: 'generate' }>, 'id' | 'kind'>): Promise<Uint8Array>
}

/**
 * pdfme in one long-lived worker thread (pdf-worker.ts), started on the first print: rendering a
 * 1,000-line order takes seconds, and on the server's thread it would hold every other request up.
 * One worker, not a pool: the machine has 2 cores and the server's thread needs one; a second
 * renderer would also parse and hold the font (~100 MB) again. Requests queue in the worker and are
 * answered in order. A worker that dies fails the prints it had and is replaced on the next one;
 * `close()` (the app's onClose) terminates it so the process exits.
 */
export function createPdfRenderer(): PdfEngine & { close(): Promise<void> } {
  let worker: Worker | undefined
  let next = 0
  const pending = new Map<number, { resolve: (a: PdfAnswer) => void; reject: (e: Error) => void }>()
  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error)
    pending.clear()
  }
  const started = (): Worker => {
    if (worker) return worker
    const w = startWorker(WORKER)
    // Idle, it does not keep the process alive; while it has work, the waiting requests do.
    w.unref()
    w.on('message', (a: PdfAnswer) => {
      const p = pending.get(a.id)
      pending.delete(a.id)
      p?.resolve(a)
    })
    w.on('error', (e) => {
      if (worker === w) worker = undefined
      failAll(e)
    })
    w.on('exit', (code) => {
      if (worker === w) worker = undefined
      failAll(new Error(`print worker exited with code ${code}`))
    })
    return (worker = w)
  }
  const ask = async (request: Unsent): Promise<PdfAnswer> => {
    const a = await new Promise<PdfAnswer>((resolve, reject) => {
      const id = ++next
      const w = started()
      pending.set(id, { resolve, reject })
      w.postMessage({ ...request, id })
    })
    if ('error' in a) throw new Error(a.error)
    return a
  }
  return {
    heights: async (table, page, cells) => ((await ask({ kind: 'heights', table, page, cells })) as { heights: number[][] }).heights,
    generate: async (request) => new Uint8Array(((await ask({ kind: 'generate', ...request })) as { pdf: ArrayBuffer }).pdf),
    close: async () => {
      const w = worker
      worker = undefined
      if (w) await w.terminate()
    },
  }
}
