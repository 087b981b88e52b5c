import type { DocumentSection } from '../metadata/document-model.js'
import type { EntityModel } from '../metadata/entity-model.js'
import { PAPER_PRESETS, type PaperPreset } from './paper.js'
import { lineColumnLabels, LINES_TABLE, PRINT_FORMAT, SPECIAL_LABELS, type PrintSchema, type PrintTemplateContent } from './print-template.js'

const FONT_SIZE = 9
const ROW = 6

const cellStyle = (fontSize: number) => ({
  alignment: 'left',
  verticalAlignment: 'middle',
  fontSize,
  lineHeight: 1,
  characterSpacing: 0,
  fontColor: '#000000',
  backgroundColor: '',
  borderColor: '#000000',
  borderWidth: { top: 0.1, right: 0.1, bottom: 0.1, left: 0.1 },
  padding: { top: 1, right: 1, bottom: 1, left: 1 },
})

/** A pdfme text element; read-only ones print their content, the others the value bound by name. */
export function textSchema(name: string, x: number, y: number, width: number, extra: Partial<PrintSchema> = {}): PrintSchema {
  return {
    name,
    type: 'text',
    position: { x, y },
    width,
    height: ROW,
    fontSize: FONT_SIZE,
    alignment: 'left',
    verticalAlignment: 'middle',
    lineHeight: 1,
    characterSpacing: 0,
    fontColor: '#000000',
    ...extra,
  }
}

/** A line table over `columns` (line field names), headed by their labels; widths shared evenly, 序号 narrow. */
export function linesTableSchema(columns: string[], labels: Map<string, string>, x: number, y: number, width: number, height: number): PrintSchema {
  const weights = columns.map((c) => (c === 'rowNo' ? 0.5 : 1))
  const sum = weights.reduce((a, b) => a + b, 0) || 1
  return {
    name: LINES_TABLE,
    type: 'table',
    position: { x, y },
    width,
    height,
    showHead: true,
    head: columns.map((c) => labels.get(c) ?? c),
    headWidthPercentages: weights.map((w) => (w / sum) * 100),
    tableStyles: { borderColor: '#000000', borderWidth: 0.2 },
    headStyles: { ...cellStyle(FONT_SIZE), backgroundColor: '#eeeeee' },
    bodyStyles: { ...cellStyle(FONT_SIZE), alternateBackgroundColor: '' },
    columnStyles: {},
    content: '[]',
  }
}

/**
 * The template a document kind prints with until the tenant designs its own: the title, the number as
 * a QR code, the header fields with their labels three to a row, the line table over every line field,
 * the page's subtotal, the grand total and its capitals, and 第N页/共M页. Labels are in the language `t`
 * translates to; it fits any paper (the multi-part forms get the same elements, smaller).
 */
export function builtinTemplate(header: EntityModel, lines: EntityModel, t: (s: string) => string, preset: PaperPreset = 'A4'): PrintTemplateContent {
  const section = header.file.document as DocumentSection
  const paper = preset === 'custom' ? PAPER_PRESETS.A4 : PAPER_PRESETS[preset]
  const margin = paper.height < 150 ? 6 : 10
  const inner = paper.width - 2 * margin
  const schemas: PrintSchema[] = []
  schemas.push(textSchema('title', margin, margin, inner, { readOnly: true, content: t(section.subject), alignment: 'center', fontSize: 14, height: 8 }))
  schemas.push({ name: 'codeQr', type: 'qrcode', position: { x: paper.width - margin - 12, y: margin }, width: 12, height: 12, content: '', backgroundColor: '#ffffff', barColor: '#000000' })
  const fields = ['code', ...header.fields.filter((f) => !f.builtin && !f.internal && !f.hidden && f.name !== 'refuseReason' && f.name !== 'code' && !['status', 'approveBy', 'approveTime', 'totalNum', 'totalGiftNum', 'totalAmount', 'settleStatus', 'printCount', 'lastPrintTime'].includes(f.name)).map((f) => f.name)]
  const perRow = 3
  const cell = inner / perRow
  const labelWidth = 26
  let y = margin + 12
  fields.forEach((name, i) => {
    const col = i % perRow
    if (i > 0 && col === 0) y += ROW
    const x = margin + col * cell
    const label = header.byName.get(name)?.label ?? name
    schemas.push(textSchema(`${name}Label`, x, y, labelWidth, { readOnly: true, content: `${t(label)}：` }))
    schemas.push(textSchema(name, x + labelWidth, y, cell - labelWidth))
  })
  y += ROW + 2
  const footerTop = paper.height - margin - 2 * ROW
  const labels = new Map([...lineColumnLabels(lines, section)].map(([k, v]) => [k, t(v)]))
  const columns = [...labels.keys()].filter((c) => !['skuCode', 'receiveNum', 'isGift'].includes(c)).slice(0, 9)
  schemas.push(linesTableSchema(columns, labels, margin, y, inner, Math.max(footerTop - y - 1, ROW * 2)))
  const money = Boolean(section.totals?.price)
  const half = inner / 2
  if (money) {
    schemas.push(textSchema('pageSubtotalLabel', margin, footerTop, 20, { readOnly: true, content: `${t(SPECIAL_LABELS.pageSubtotal)}：` }))
    schemas.push(textSchema('pageSubtotal', margin + 20, footerTop, 30))
    schemas.push(textSchema('grandTotalLabel', margin + 52, footerTop, 20, { readOnly: true, content: `${t(SPECIAL_LABELS.grandTotal)}：` }))
    schemas.push(textSchema('grandTotal', margin + 72, footerTop, 30))
    schemas.push(textSchema('amountInWordsLabel', margin, footerTop + ROW, 20, { readOnly: true, content: `${t(SPECIAL_LABELS.amountInWords)}：` }))
    schemas.push(textSchema('amountInWords', margin + 20, footerTop + ROW, half + 20))
  }
  schemas.push(textSchema('pageNo', paper.width - margin - 40, footerTop + ROW, 40, { alignment: 'right' }))
  return {
    format: PRINT_FORMAT,
    kind: header.name,
    paper: { preset, width: paper.width, height: paper.height },
    margins: [margin, margin, margin, margin],
    lineColumns: columns,
    schemas,
  }
}
