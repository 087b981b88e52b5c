import { documentInputs, pageSlices, type PageSlice, type PrintModels } from '../../../shared/print/print-pages.js'
import { LINES_TABLE, ROW_NO, type PrintSchema, type PrintTemplateContent } from '../../../shared/print/print-template.js'
import { printValue } from '../../../shared/print/print-values.js'
import type { PdfEngine } from './pdf-renderer.js'

type Row = Record<string, unknown>

/** One document to print: its header values and its lines (wire names, product data joined). */
export interface PrintedDocument {
  header: Row
  lines: Row[]
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
 * Renders documents with one template into one PDF (pdfme, through `engine`: a worker thread on the
 * server, pdf-renderer.ts), each document on as many pages as its lines need, and answers the PDF with
 * each document's page count. What needs the kind's models (values as their fields declare, pages'
 * subtotals) is done here; only pdfme's measuring and drawing go to the engine.
 */
export async function renderPdf(engine: PdfEngine, content: PrintTemplateContent, models: PrintModels, documents: readonly PrintedDocument[], printTime: string): Promise<{ pdf: Uint8Array; pages: number[] }> {
  const table = content.schemas.find((s) => s.type === 'table' && s.name === LINES_TABLE)
  const page = { width: content.paper.width, height: content.paper.height, padding: [0, 0, 0, 0] as [number, number, number, number] }
  let slices: PageSlice[][] = documents.map((doc) => [[0, doc.lines.length]])
  if (table) {
    const cells = documents.map((doc) =>
      JSON.stringify(doc.lines.map((line, i) => content.lineColumns.map((c) => (c === ROW_NO ? String(i + 1) : printValue(models.lines.byName.get(c), line, c, models.enums, models.t))))),
    )
    const heights = await engine.heights(table, page, cells)
    const head = (h: number[]) => (table.showHead === false ? 0 : (h[0] ?? 0))
    slices = heights.map((h) => pageSlices(table.showHead === false ? h : h.slice(1), head(h), tableRoom(content, table)))
  }
  const inputs: Record<string, string>[] = []
  const pages: number[] = []
  documents.forEach((doc, i) => {
    const docInputs = documentInputs(content, models, doc.header, doc.lines, slices[i], printTime)
    inputs.push(...docInputs)
    pages.push(docInputs.length)
  })
  const pdf = await engine.generate({ basePdf: blankPdf(content.paper.width, content.paper.height), schemas: printedSchemas(content), inputs, page })
  return { pdf, pages }
}
