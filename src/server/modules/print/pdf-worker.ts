/**
 * The worker-thread side of pdf-renderer.ts: pdfme's table row heights and PDF generation, off the
 * server's thread. pdfme and the Chinese font (10.5 MB, parsed on first use) are loaded once and kept
 * for the life of the worker; requests are handled one after another in the order they came.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { parentPort } from 'node:worker_threads'
import { loadPdfme } from '../../platform/heavy-modules.js'
import { printPlugins } from '../../../shared/print/print-plugins.js'
import type { PdfAnswer, PdfRequest } from './pdf-worker-protocol.js'

const port = parentPort
if (!port) throw new Error('pdf-worker.ts must run as a worker thread')

/** The Chinese font embedded (as a subset of the glyphs used) in every PDF, so it prints the same everywhere. */
const FONT_FILE = createRequire(import.meta.url).resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf')
const FONT_NAME = 'NotoSansSC'

let font: Promise<Buffer> | undefined
const fontOptions = async () => {
  if (!font) {
    font = readFile(FONT_FILE)
    font.catch(() => (font = undefined))
  }
  return { font: { [FONT_NAME]: { data: await font, fallback: true, subset: true } } }
}
/** pdfme's cache of parsed fonts for row heights, kept across requests (generate keeps its own per call). */
const cache = new Map<string | number, unknown>()

async function answer(m: PdfRequest): Promise<{ answer: PdfAnswer; transfer: ArrayBuffer[] }> {
  const { generate, schemas: plugins } = await loadPdfme()
  const options = await fontOptions()
  if (m.kind === 'heights') {
    const heights: number[][] = []
    for (const cells of m.cells)
      heights.push(await plugins.getDynamicHeightsForTable(cells, { schema: m.table as never, basePdf: m.page, options: options as never, _cache: cache }))
    return { answer: { id: m.id, heights }, transfer: [] }
  }
  // The table draws the rows it is given where it stands; told of a real page it only warns that it will not re-lay.
  const tablePlugin = { ...plugins.table, pdf: (arg: { basePdf: unknown }) => plugins.table.pdf({ ...arg, basePdf: m.page } as never) }
  const pdf = await generate({
    template: { basePdf: m.basePdf, schemas: [m.schemas] } as never,
    inputs: m.inputs,
    options: options as never,
    plugins: { ...printPlugins(plugins), table: tablePlugin } as never,
  })
  // Transferred, not copied: a view of exactly the PDF's bytes in a buffer of its own.
  const bytes = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? pdf : pdf.slice()
  return { answer: { id: m.id, pdf: bytes.buffer as ArrayBuffer }, transfer: [bytes.buffer as ArrayBuffer] }
}

let queue: Promise<void> = Promise.resolve()
port.on('message', (m: PdfRequest) => {
  queue = queue.then(() =>
    answer(m).then(
      ({ answer: a, transfer }) => port.postMessage(a, transfer),
      (error: unknown) => port.postMessage({ id: m.id, error: error instanceof Error ? error.message : String(error) } satisfies PdfAnswer),
    ),
  )
})
