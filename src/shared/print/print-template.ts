import type { EntityModel, FieldModel } from '../metadata/entity-model.js'
import { hasProductLines, type DocumentSection } from '../metadata/document-model.js'
import { PAPER_MAX_MM, PAPER_MIN_MM, PAPER_PRESETS, type PaperPreset } from './paper.js'

/** The format tag of a template file: an export names it, an import checks it. */
export const PRINT_FORMAT = 'xingyun-print/1'

/** The one line table of a template (a pdfme `table` schema of this name). */
export const LINES_TABLE = 'lines'

/**
 * What a template may show besides the document's own fields: page numbering, the page's subtotal
 * (lines of this page), the grand total and its capitals (last page only), and the moment of printing.
 */
export const PRINT_SPECIALS = ['pageNo', 'pageSubtotal', 'pageSubtotalNum', 'grandTotal', 'amountInWords', 'printTime'] as const
export type PrintSpecial = (typeof PRINT_SPECIALS)[number]

export const SPECIAL_LABELS: Record<PrintSpecial, string> = {
  pageNo: '第N页/共M页',
  pageSubtotal: '本页小计',
  pageSubtotalNum: '本页数量',
  grandTotal: '合计金额',
  amountInWords: '金额大写',
  printTime: '打印时间',
}

/** Barcode kinds a template may draw (the content is always the document number). */
export const BARCODE_TYPES = ['qrcode', 'code128'] as const

/** Schema types a template may hold: no plugin that runs code, fetches, or fills forms. */
export const SCHEMA_TYPES = ['text', 'table', 'image', 'line', 'rectangle', 'ellipse', ...BARCODE_TYPES] as const

/** One element of the page, in pdfme's shape (position and sizes in millimetres). */
export interface PrintSchema {
  name: string
  type: string
  position: { x: number; y: number }
  width: number
  height: number
  readOnly?: boolean
  content?: string
  [prop: string]: unknown
}

export interface PrintTemplateContent {
  format: typeof PRINT_FORMAT
  /** The document kind (its file's name, e.g. purchaseOrder). */
  kind: string
  paper: { preset: PaperPreset; width: number; height: number }
  /** top, right, bottom, left in millimetres. */
  margins: [number, number, number, number]
  /** The pre-printed form as an image (data URL) to align on; printed only when printBackground. */
  background?: string
  printBackground?: boolean
  /** Line fields of the line table's columns, in order. */
  lineColumns: string[]
  /** The elements of one page; every page of the document repeats them. */
  schemas: PrintSchema[]
}

/** A document's fields a template may bind: declared and engine header fields except internal ones. */
export function headerPrintFields(header: EntityModel): FieldModel[] {
  return [...header.byName.values()].filter((f) => !f.internal && f.name !== 'id' && !f.name.endsWith('ById'))
}

/** Product lines also show the product's code, name, unit and spec (joined by the engine on reading). */
export const PRODUCT_COLUMNS: Record<string, string> = {
  productCode: '商品编号',
  productName: '商品名称',
  skuCode: '商品SKU编号',
  unit: '单位',
  spec: '规格',
}

/** The line table's running number column (not a stored field). */
export const ROW_NO = 'rowNo'

/** Line columns a template may show, with their Simplified labels. */
export function lineColumnLabels(lines: EntityModel, section: DocumentSection): Map<string, string> {
  const productLines = hasProductLines(section)
  const out = new Map<string, string>([[ROW_NO, '序号']])
  if (productLines) for (const [name, label] of Object.entries(PRODUCT_COLUMNS)) out.set(name, label)
  for (const f of lines.fields) {
    if (f.internal || f.name === section.lines.parentField || f.name === 'orderNo') continue
    if (productLines && f.name === 'productId') continue
    out.set(f.name, f.label)
  }
  return out
}

const DATA_IMAGE = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/=]+)$/
/** An embedded image's largest size (a logo, a stamp or a scanned form). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024

const finite = (v: unknown, min: number, max: number) => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max

/** The bytes of an embedded image, or undefined when the text is not a PNG or JPEG data URL of allowed size. */
export function imageBytes(dataUrl: string): Uint8Array | undefined {
  const m = DATA_IMAGE.exec(dataUrl)
  if (!m) return undefined
  const bytes = Uint8Array.from(atob(m[2]), (c) => c.charCodeAt(0))
  if (bytes.length > MAX_IMAGE_BYTES) return undefined
  const png = bytes.length > 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47
  const jpeg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff
  return (m[1] === 'png' ? png : jpeg) ? bytes : undefined
}

/**
 * Why a template cannot be stored for this document kind (a Chinese message), or undefined when it can.
 * Every bound name must be a readable field of the kind or a print special; read-only text carries no
 * `{…}` placeholders (pdfme evaluates those as expressions: no script in templates); images are
 * embedded PNG/JPEG of bounded size, never addresses the server would fetch.
 */
export function templateProblem(content: unknown, header: EntityModel, lines: EntityModel): string | undefined {
  const section = header.file.document as DocumentSection
  if (!content || typeof content !== 'object') return '打印模板内容格式不正确'
  const c = content as Partial<PrintTemplateContent>
  if (c.format !== PRINT_FORMAT) return '打印模板内容格式不正确'
  if (c.kind !== header.name) return '打印模板不属于该单据类型'
  const paper = c.paper
  if (!paper || typeof paper !== 'object' || !(paper.preset in PAPER_PRESETS || paper.preset === 'custom')) return '纸张设置不正确'
  if (!finite(paper.width, PAPER_MIN_MM, PAPER_MAX_MM) || !finite(paper.height, PAPER_MIN_MM, PAPER_MAX_MM)) return '纸张设置不正确'
  if (paper.preset !== 'custom') {
    const preset = PAPER_PRESETS[paper.preset]
    if (preset.width !== paper.width || preset.height !== paper.height) return '纸张设置不正确'
  }
  const m = c.margins
  const half = Math.min(paper.width, paper.height) / 2
  if (!Array.isArray(m) || m.length !== 4 || !m.every((v) => finite(v, 0, half))) return '页边距设置不正确'
  if (c.background !== undefined && (typeof c.background !== 'string' || !imageBytes(c.background))) return '背景图片只能是不超过2MB的png或jpeg图片'
  if (c.printBackground !== undefined && typeof c.printBackground !== 'boolean') return '打印模板内容格式不正确'
  const columns = lineColumnLabels(lines, section)
  if (!Array.isArray(c.lineColumns) || c.lineColumns.length > 30 || !c.lineColumns.every((n) => typeof n === 'string' && columns.has(n)))
    return '明细表的列只能是该单据的明细字段'
  if (!Array.isArray(c.schemas) || c.schemas.length > 300) return '打印模板内容格式不正确'
  const bindable = new Set<string>([...headerPrintFields(header).map((f) => f.name), ...PRINT_SPECIALS])
  const names = new Set<string>()
  for (const s of c.schemas) {
    if (!s || typeof s !== 'object' || typeof s.name !== 'string' || !s.name || s.name.length > 64) return '打印模板内容格式不正确'
    if (names.has(s.name)) return `打印模板中的元素名称重复：${s.name}`
    names.add(s.name)
    if (!(SCHEMA_TYPES as readonly string[]).includes(s.type)) return `打印模板不支持该元素类型：${String(s.type)}`
    if (!s.position || !finite(s.position.x, -1, paper.width) || !finite(s.position.y, -1, paper.height)) return `元素超出纸张范围：${s.name}`
    if (!finite(s.width, 0, paper.width + 1) || !finite(s.height, 0, paper.height + 1)) return `元素超出纸张范围：${s.name}`
    const content = s.content ?? ''
    if (typeof content !== 'string') return '打印模板内容格式不正确'
    if (s.type === 'table') {
      if (s.name !== LINES_TABLE) return '明细表的名称必须为lines'
      continue
    }
    if (s.type === 'image') {
      if (!s.readOnly || (content !== '' && !imageBytes(content))) return '图片只能是不超过2MB的png或jpeg图片'
      continue
    }
    if ((BARCODE_TYPES as readonly string[]).includes(s.type)) continue
    if (s.readOnly) {
      if (/[{}]/.test(content)) return '打印模板中的文字不能包含花括号'
      continue
    }
    if (s.type === 'text' && !bindable.has(s.name)) return `打印模板中的字段不属于该单据或不可读：${s.name}`
  }
  return undefined
}
