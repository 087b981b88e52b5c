import type { DocumentSection } from '../metadata/document-model.js'
import { documentSums, documentTotals } from '../metadata/document-totals.js'
import type { EntityModel } from '../metadata/entity-model.js'
import type { EnumCatalog } from '../metadata/enum-catalog.js'
import { BARCODE_TYPES, LINES_TABLE, ROW_NO, type PrintTemplateContent } from './print-template.js'
import { printValue } from './print-values.js'
import { rmbCapitals } from './rmb-capitals.js'

type Row = Record<string, unknown>

/** One page's share of the lines: indexes [start, end). */
export type PageSlice = readonly [number, number]

/**
 * Splits the lines into pages: each page takes the rows that fit under the repeated head row in the
 * table's height (`rowHeights` as the table will draw them, wrapped text included). A row taller than
 * the whole table still gets a page of its own; a document without lines prints one page.
 */
export function pageSlices(rowHeights: readonly number[], headHeight: number, tableHeight: number): PageSlice[] {
  const room = tableHeight - headHeight
  const slices: PageSlice[] = []
  let start = 0
  let used = 0
  rowHeights.forEach((h, i) => {
    if (i > start && used + h > room + 0.01) {
      slices.push([start, i])
      start = i
      used = 0
    }
    used += h
  })
  slices.push([start, rowHeights.length])
  return slices
}

export interface PrintModels {
  header: EntityModel
  lines: EntityModel
  enums: EnumCatalog
  t: (s: string) => string
}

/** 第N页/共M页 in the reader's language (the catalogues translate the pattern). */
export const pageNoText = (t: (s: string) => string, n: number, m: number) =>
  t('第{n}页/共{m}页').replace('{n}', String(n)).replace('{m}', String(m))

/** The amount of some lines: Σ price × quantity where the kind declares totals, else its first declared sum. */
export function linesAmount(section: DocumentSection, lines: readonly Row[]): string | undefined {
  if (section.totals?.price) return documentTotals(lines, section.totals).amount
  const sums = documentSums(lines, section.sums)
  return sums[0]?.value
}

/** The text of one cell of the line table. */
function lineCell(models: PrintModels, line: Row, column: string, index: number): string {
  if (column === ROW_NO) return String(index + 1)
  const field = models.lines.byName.get(column)
  return printValue(field, line, column, models.enums, models.t)
}

/**
 * The pdfme inputs of one document, one per page: header fields as their field declares, the page's
 * lines in the line table, page number, the page's subtotal, and on the last page the grand total and
 * its capitals (人民币大写). Barcodes and QR codes carry the document number.
 */
export function documentInputs(content: PrintTemplateContent, models: PrintModels, header: Row, lines: readonly Row[], slices: readonly PageSlice[], printTime: string): Record<string, string>[] {
  const section = models.header.file.document as DocumentSection
  const bound = content.schemas.filter((s) => !s.readOnly)
  const grand = linesAmount(section, lines)
  const fixed: Record<string, string> = {}
  for (const s of bound) {
    if ((BARCODE_TYPES as readonly string[]).includes(s.type)) fixed[s.name] = String(header.code ?? '')
    else if (s.type !== 'table' && models.header.byName.has(s.name)) fixed[s.name] = printValue(models.header.byName.get(s.name), header, s.name, models.enums, models.t)
  }
  if (bound.some((s) => s.name === 'printTime')) fixed.printTime = printTime
  return slices.map(([start, end], page) => {
    const last = page === slices.length - 1
    const pageLines = lines.slice(start, end)
    const input: Record<string, string> = { ...fixed }
    for (const s of bound) {
      if (s.type === 'table' && s.name === LINES_TABLE)
        input[s.name] = JSON.stringify(pageLines.map((line, i) => content.lineColumns.map((c) => lineCell(models, line, c, start + i))))
    }
    const names = new Set(bound.map((s) => s.name))
    if (names.has('pageNo')) input.pageNo = pageNoText(models.t, page + 1, slices.length)
    if (names.has('pageSubtotal')) input.pageSubtotal = linesAmount(section, pageLines) ?? ''
    if (names.has('pageSubtotalNum') && section.totals) {
      const t = documentTotals(pageLines, section.totals)
      input.pageSubtotalNum = String(BigInt(t.num) + BigInt(t.giftNum))
    }
    if (names.has('grandTotal')) input.grandTotal = last ? (grand ?? '') : ''
    if (names.has('amountInWords')) input.amountInWords = last && grand !== undefined ? rmbCapitals(grand) : ''
    return input
  })
}
