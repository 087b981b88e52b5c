import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { loadPdfme } from '../../platform/heavy-modules.js'
import { documentInputs, pageSlices, type PageSlice, type PrintModels } from '../../../shared/print/print-pages.js'
import { LINES_TABLE, ROW_NO, type PrintSchema, type PrintTemplateContent } from '../../../shared/print/print-template.js'
import { printValue } from '../../../shared/print/print-values.js'

type Row = Record<string, unknown>

/** One document to print: its header values and its lines (wire names, product data joined). */
export interface PrintedDocument {
  header: Row
  lines: Row[]
}

const require = createRequire(import.meta.url)
/** The Chinese font embedded (as a subset of the glyphs used) in every PDF, so it prints the same everywhere. */
export const FONT_FILE = require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf')
export const FONT_NAME = 'NotoSansSC'

let font: Promise<Buffer> | undefined
const fontBytes = () => {
  if (!font) {
    font = readFile(FONT_FILE)
    font.catch(() => (font = undefined))
  }
  return font
}

const MM_TO_PT = 72 / 25.4

/**
 * An empty one-page PDF of the paper's size. The template prints over a real page (not pdfme's blank
 * page with margins), so every element stays exactly where it was placed: on pre-printed forms
 * nothing may move, and pdfme's dynamic layout would shift what follows a shorter table.
 */
export function blankPdf(widthMm: number, heightMm: number): Uint8Array {
  const w = (widthMm * MM_TO_PT).toFixed(2)
  const h = (heightMm * MM_TO_PT).toFixed(2)
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << >> /Contents 4 0 R >>`,
    '<< /Length 0 >>\nstream\n\nendstream',
  ]
  let out = '%PDF-1.7\n'
  const offsets: number[] = []
  objects.forEach((o, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${o}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new TextEncoder().encode(out)
}

/**
 * Room for the line table's rows on a page: from its top down to the first element below it, or to the
 * bottom margin. pdfme's designer sizes a table to its sample rows, so the height it stores is not the
 * area meant for lines; what lies below (totals, signatures) is.
 */
export function tableRoom(content: PrintTemplateContent, table: PrintSchema): number {
  const top = table.position.y
  const overlaps = (s: PrintSchema) => s.position.x < table.position.x + table.width && s.position.x + s.width > table.position.x
  const below = content.schemas.filter((s) => s !== table && s.position.y > top + 0.5 && overlaps(s)).map((s) => s.position.y)
  return Math.max(Math.min(content.paper.height - content.margins[2], ...below) - top, 1)
}

/**
 * The elements as printed, in reading order (top to bottom, left to right), so the PDF's text reads as
 * the page does; the background of the form first when it is to be printed.
 */
function printedSchemas(content: PrintTemplateContent): PrintSchema[] {
  const schemas = [...content.schemas].sort((a, b) => a.position.y - b.position.y || a.position.x - b.position.x)
  if (!content.printBackground || !content.background) return schemas
  const background: PrintSchema = {
    name: '__background',
    type: 'image',
    readOnly: true,
    content: content.background,
    position: { x: 0, y: 0 },
    width: content.paper.width,
    height: content.paper.height,
  }
  return [background, ...schemas]
}

/**
 * Renders documents with one template into one PDF (pdfme), each document on as many pages as its lines
 * need, and answers the PDF with each document's page count.
 */
export async function renderPdf(content: PrintTemplateContent, models: PrintModels, documents: readonly PrintedDocument[], printTime: string): Promise<{ pdf: Uint8Array; pages: number[] }> {
  const { generate, schemas: plugins } = await loadPdfme()
  const data = await fontBytes()
  const options = { font: { [FONT_NAME]: { data, fallback: true, subset: true } } }
  const table = content.schemas.find((s) => s.type === 'table' && s.name === LINES_TABLE)
  const inputs: Record<string, string>[] = []
  const pages: number[] = []
  const cache = new Map<string | number, unknown>()
  const page = { width: content.paper.width, height: content.paper.height, padding: [0, 0, 0, 0] as [number, number, number, number] }
  for (const doc of documents) {
    let slices: PageSlice[] = [[0, doc.lines.length]]
    if (table) {
      const cells = doc.lines.map((line, i) =>
        content.lineColumns.map((c) => (c === ROW_NO ? String(i + 1) : printValue(models.lines.byName.get(c), line, c, models.enums, models.t))),
      )
      const heights = await plugins.getDynamicHeightsForTable(JSON.stringify(cells), {
        schema: table as never,
        basePdf: page,
        options: options as never,
        _cache: cache,
      })
      const head = table.showHead === false ? 0 : (heights[0] ?? 0)
      slices = pageSlices(table.showHead === false ? heights : heights.slice(1), head, tableRoom(content, table))
    }
    const docInputs = documentInputs(content, models, doc.header, doc.lines, slices, printTime)
    inputs.push(...docInputs)
    pages.push(docInputs.length)
  }
  const template = { basePdf: blankPdf(content.paper.width, content.paper.height), schemas: [printedSchemas(content)] }
  // The table draws the rows it is given where it stands; told of a real page it only warns that it will not re-lay.
  const tablePlugin = { ...plugins.table, pdf: (arg: { basePdf: unknown }) => plugins.table.pdf({ ...arg, basePdf: page } as never) }
  const pdf = await generate({
    template: template as never,
    inputs,
    options: options as never,
    plugins: {
      text: plugins.text,
      table: tablePlugin,
      image: plugins.image,
      line: plugins.line,
      rectangle: plugins.rectangle,
      ellipse: plugins.ellipse,
      qrcode: plugins.barcodes.qrcode,
      code128: plugins.barcodes.code128,
    } as never,
  })
  return { pdf, pages }
}
