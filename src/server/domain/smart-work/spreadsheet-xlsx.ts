import type ExcelJS from 'exceljs'
import { loadExcelJs } from '../../platform/heavy-modules.js'
import { invalid } from '../../platform/errors.js'
import { fontName } from '../../../shared/spreadsheet-fonts.js'
import {
  checkWorkbook,
  type BorderInfo,
  type BorderSide,
  type CellValue,
  type Sheet,
  type SheetCell,
  type SheetImage,
  type Workbook,
} from './spreadsheet-content.js'

/**
 * Luckysheet/FortuneSheet workbook <-> .xlsx on the server with exceljs: the mapping of
 * `@corbe30/fortune-excel` (values, formulas, fills, fonts, alignments, 14 border kinds, merged cells,
 * images) applied to the stored sparse `celldata`, with the spec's constants (001 §9): font size 10 by
 * default, row height scaled by 1.2 and column width divided by 8. On the server so that a 10,000-row
 * sheet is never built as a Blob in the browser, and so export and import share one tested mapping.
 */

/** 001 §9. */
export const DEFAULT_FONT_SIZE = 10
export const ROW_HEIGHT_SCALE = 1.2
export const COLUMN_WIDTH_DIVISOR = 8
/** FortuneSheet's defaults, in pixels. */
const DEFAULT_ROW_PX = 19
const DEFAULT_COLUMN_PX = 73

/** Luckysheet border style codes 0-13 (the 14 kinds) and exceljs' names for them. */
export const BORDER_STYLES: readonly (ExcelJS.BorderStyle | undefined)[] = [
  undefined,
  'thin',
  'hair',
  'dotted',
  'dashed',
  'dashDot',
  'dashDotDot',
  'double',
  'medium',
  'mediumDashed',
  'mediumDashDot',
  'mediumDashDotDot',
  'slantDashDot',
  'thick',
]

const H_ALIGN: Record<string, ExcelJS.Alignment['horizontal']> = { '0': 'center', '1': 'left', '2': 'right' }
const V_ALIGN: Record<string, ExcelJS.Alignment['vertical']> = { '0': 'middle', '1': 'top', '2': 'bottom' }
const ROTATION: Record<string, number | 'vertical'> = { '1': 45, '2': -45, '3': 'vertical', '4': 90, '5': -90 }

type Side = 'top' | 'left' | 'bottom' | 'right'
type CellBorders = Partial<Record<Side, BorderSide>>

/* ---------------------------------- colours ---------------------------------- */

/** '#rgb', '#rrggbb' or 'rgb(r, g, b)' to exceljs ARGB; undefined for anything else. */
export function toArgb(color: unknown): string | undefined {
  if (typeof color !== 'string') return undefined
  const c = color.trim()
  let m = /^#([0-9a-f]{6})$/i.exec(c)
  if (m) return `FF${m[1].toUpperCase()}`
  m = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(c)
  if (m) return `FF${m[1]}${m[1]}${m[2]}${m[2]}${m[3]}${m[3]}`.toUpperCase()
  m = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})/i.exec(c)
  if (m) return `FF${[m[1], m[2], m[3]].map((n) => Math.min(255, Number(n)).toString(16).padStart(2, '0')).join('').toUpperCase()}`
  return undefined
}

const fromArgb = (argb: unknown): string | undefined =>
  typeof argb === 'string' && /^[0-9a-f]{8}$/i.test(argb) ? `#${argb.slice(2).toLowerCase()}` : undefined

/* ---------------------------------- export ---------------------------------- */

const cellObject = (cell: SheetCell): CellValue => (cell.v !== null && typeof cell.v === 'object' ? cell.v : { v: cell.v as CellValue['v'] })
const flag = (v: unknown) => v === 1 || v === '1' || v === true

function fontOf(v: CellValue): Partial<ExcelJS.Font> {
  const size = Number(v.fs)
  const name = fontName(v.ff)
  const font: Partial<ExcelJS.Font> = { size: Number.isFinite(size) && size > 0 ? size : DEFAULT_FONT_SIZE }
  if (name) font.name = name
  if (flag(v.bl)) font.bold = true
  if (flag(v.it)) font.italic = true
  if (flag(v.cl)) font.strike = true
  if (flag(v.un)) font.underline = true
  const color = toArgb(v.fc)
  if (color) font.color = { argb: color }
  return font
}

function alignmentOf(v: CellValue): Partial<ExcelJS.Alignment> | undefined {
  const a: Partial<ExcelJS.Alignment> = {}
  if (v.ht !== undefined && H_ALIGN[String(v.ht)]) a.horizontal = H_ALIGN[String(v.ht)]
  if (v.vt !== undefined && V_ALIGN[String(v.vt)]) a.vertical = V_ALIGN[String(v.vt)]
  if (String(v.tb) === '2') a.wrapText = true
  if (v.tr !== undefined && ROTATION[String(v.tr)] !== undefined) a.textRotation = ROTATION[String(v.tr)]
  return Object.keys(a).length ? a : undefined
}

/** What Excel stores for the cell: a formula with its last result, a number, a date text, or text. */
function valueOf(v: CellValue): ExcelJS.CellValue {
  let value: string | number | boolean | null = null
  if (v.ct?.t === 'inlineStr' && Array.isArray(v.ct.s)) value = v.ct.s.map((s) => String(s?.v ?? '')).join('')
  else if (v.v === undefined || v.v === null || v.v === '') value = null
  else if (v.ct?.t === 'n' || typeof v.v === 'number') {
    const n = Number(v.v)
    value = Number.isFinite(n) ? n : String(v.v)
  } else if (typeof v.v === 'boolean') value = v.v
  else value = String(v.v)
  if (typeof v.f === 'string' && v.f.trim()) {
    const formula = v.f.trim().replace(/^=/, '')
    return value === null ? { formula, date1904: false } : { formula, result: value as string | number | boolean, date1904: false }
  }
  return value
}

/** The cells a range border touches, clipped to the sheet's used area (a whole-column border stays cheap). */
function* rangeCells(row: [number, number], column: [number, number], maxRow: number, maxColumn: number) {
  for (let r = row[0]; r <= Math.min(row[1], maxRow); r++) for (let c = column[0]; c <= Math.min(column[1], maxColumn); c++) yield [r, c] as const
}

/** Each cell's four sides from `borderInfo` (ranges with a border type, or single cells), later entries winning. */
export function cellBorders(infos: BorderInfo[] | undefined, maxRow: number, maxColumn: number): Map<string, CellBorders> {
  const out = new Map<string, CellBorders>()
  const set = (r: number, c: number, side: Side, value: BorderSide | undefined) => {
    const key = `${r}_${c}`
    const cell = out.get(key) ?? {}
    if (value) cell[side] = value
    else delete cell[side]
    out.set(key, cell)
  }
  for (const info of infos ?? []) {
    if (info.rangeType === 'cell' && info.value) {
      const { row_index: r, col_index: c } = info.value
      if (!Number.isInteger(r) || !Number.isInteger(c)) continue
      for (const [k, side] of [['t', 'top'], ['l', 'left'], ['b', 'bottom'], ['r', 'right']] as const) {
        const v = info.value[k]
        if (v) set(r, c, side, v)
      }
      continue
    }
    const side: BorderSide = { style: info.style, color: info.color }
    for (const range of info.range ?? []) {
      if (!Array.isArray(range?.row) || !Array.isArray(range?.column)) continue
      const [r1, r2] = range.row.map(Number)
      const [c1, c2] = range.column.map(Number)
      if (![r1, r2, c1, c2].every((n) => Number.isInteger(n) && n >= 0)) continue
      for (const [r, c] of rangeCells([r1, r2], [c1, c2], maxRow, maxColumn)) {
        const edge = { top: r === r1, bottom: r === r2, left: c === c1, right: c === c2 }
        const sides: Side[] = []
        switch (info.borderType) {
          case 'border-all':
            sides.push('top', 'bottom', 'left', 'right')
            break
          case 'border-outside':
            for (const s of ['top', 'bottom', 'left', 'right'] as const) if (edge[s]) sides.push(s)
            break
          case 'border-inside':
            if (!edge.bottom) sides.push('bottom')
            if (!edge.right) sides.push('right')
            break
          case 'border-horizontal':
            if (!edge.bottom) sides.push('bottom')
            break
          case 'border-vertical':
            if (!edge.right) sides.push('right')
            break
          case 'border-top':
          case 'border-bottom':
          case 'border-left':
          case 'border-right': {
            const s = info.borderType.slice(7) as Side
            if (edge[s]) sides.push(s)
            break
          }
          case 'border-none':
            for (const s of ['top', 'bottom', 'left', 'right'] as const) set(r, c, s, undefined)
            break
        }
        for (const s of sides) set(r, c, s, side)
      }
    }
  }
  return out
}

const excelBorder = (side: BorderSide | undefined): Partial<ExcelJS.Border> | undefined => {
  const style = BORDER_STYLES[Number(side?.style)]
  if (!side || !style) return undefined
  const argb = toArgb(side.color) ?? 'FF000000'
  return { style, color: { argb } }
}

/** Pixel offsets of each row/column start, from the sheet's sizes and FortuneSheet's defaults. */
const offsetToIndex = (px: number, sizes: Record<string, number> | undefined, fallback: number): number => {
  let at = 0
  for (let i = 0; i < 1_048_576; i++) {
    const size = sizes?.[i] ?? fallback
    if (at + size > px) return i + (px - at) / size
    at += size
  }
  return 0
}

const DATA_URL = /^data:image\/(png|jpe?g|gif);base64,([A-Za-z0-9+/=\s]+)$/

function addImages(book: ExcelJS.Workbook, ws: ExcelJS.Worksheet, sheet: Sheet) {
  for (const image of sheet.images ?? []) {
    const m = DATA_URL.exec(image.src)
    if (!m) continue
    const id = book.addImage({ base64: m[2].replace(/\s/g, ''), extension: m[1] === 'jpg' ? 'jpeg' : (m[1] as 'png' | 'jpeg' | 'gif') })
    const col = offsetToIndex(image.left, sheet.config?.columnlen, DEFAULT_COLUMN_PX)
    const row = offsetToIndex(image.top, sheet.config?.rowlen, DEFAULT_ROW_PX)
    ws.addImage(id, { tl: { col, row } as ExcelJS.Anchor, ext: { width: image.width, height: image.height } })
  }
}

function writeSheet(book: ExcelJS.Workbook, sheet: Sheet) {
  const ws = book.addWorksheet(sheet.name.replace(/[[\]:*?/\\]/g, '_'))
  const config = sheet.config ?? {}
  ws.properties.defaultColWidth = DEFAULT_COLUMN_PX / COLUMN_WIDTH_DIVISOR
  ws.properties.defaultRowHeight = DEFAULT_ROW_PX * ROW_HEIGHT_SCALE
  for (const [c, px] of Object.entries(config.columnlen ?? {})) ws.getColumn(Number(c) + 1).width = px / COLUMN_WIDTH_DIVISOR
  for (const [r, px] of Object.entries(config.rowlen ?? {})) ws.getRow(Number(r) + 1).height = px * ROW_HEIGHT_SCALE
  for (const c of Object.keys(config.colhidden ?? {})) ws.getColumn(Number(c) + 1).hidden = true
  for (const r of Object.keys(config.rowhidden ?? {})) ws.getRow(Number(r) + 1).hidden = true

  let maxRow = 0
  let maxColumn = 0
  // Cells of one look share one style object: exceljs then finds its style id by identity instead of
  // serialising a style per cell (a 250,000-cell sheet exports several times faster). Shared objects
  // are never mutated: a border gives its cell a copy below.
  const styles = new Map<string, Partial<ExcelJS.Style>>()
  for (const cell of sheet.celldata) {
    maxRow = Math.max(maxRow, cell.r)
    maxColumn = Math.max(maxColumn, cell.c)
    const v = cellObject(cell)
    const target = ws.getCell(cell.r + 1, cell.c + 1)
    target.value = valueOf(v)
    const style: Partial<ExcelJS.Style> = { font: fontOf(v) }
    const fill = toArgb(v.bg)
    if (fill) style.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: fill } }
    const alignment = alignmentOf(v)
    if (alignment) style.alignment = alignment
    if (v.ct?.fa && v.ct.fa !== 'General' && v.ct.fa !== '@' && typeof target.value === 'number') style.numFmt = v.ct.fa
    if (v.ct?.fa === '@') style.numFmt = '@'
    const key = JSON.stringify(style)
    let shared = styles.get(key)
    if (!shared) styles.set(key, (shared = style))
    target.style = shared as ExcelJS.Style
  }
  for (const m of Object.values(config.merge ?? {})) maxRow = Math.max(maxRow, m.r + m.rs - 1)
  for (const [key, sides] of cellBorders(config.borderInfo, Math.max(maxRow, 0) + 1, Math.max(maxColumn, 0) + 1)) {
    const [r, c] = key.split('_').map(Number)
    const border: Partial<ExcelJS.Borders> = {}
    for (const s of ['top', 'left', 'bottom', 'right'] as const) {
      const b = excelBorder(sides[s])
      if (b) border[s] = b
    }
    if (!Object.keys(border).length) continue
    const target = ws.getCell(r + 1, c + 1)
    target.style = { ...target.style, border } as ExcelJS.Style
  }
  for (const m of Object.values(config.merge ?? {})) if (m.rs > 1 || m.cs > 1) ws.mergeCells(m.r + 1, m.c + 1, m.r + m.rs, m.c + m.cs)
  addImages(book, ws, sheet)
}

/** The .xlsx of a stored workbook. */
export async function workbookToXlsx(workbook: Workbook): Promise<Buffer> {
  const book = new (await loadExcelJs()).Workbook()
  book.creator = '在线Excel'
  const sheets = [...workbook.sheets].sort((a, b) => Number(a.order ?? 0) - Number(b.order ?? 0))
  for (const sheet of sheets) writeSheet(book, sheet)
  return Buffer.from(await book.xlsx.writeBuffer())
}

/* ---------------------------------- import ---------------------------------- */

const reverse = <T extends string | number>(map: Record<string, T | undefined>) =>
  Object.fromEntries(Object.entries(map).map(([k, v]) => [String(v), Number(k)])) as Record<string, number>
const H_CODE = reverse(H_ALIGN)
const V_CODE = reverse(V_ALIGN)
const ROTATION_CODE = reverse(ROTATION)
const BORDER_CODE = Object.fromEntries(BORDER_STYLES.map((s, i) => [s ?? '', i])) as Record<string, number>

function plainText(value: ExcelJS.CellValue): string | number | boolean | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value
  if (value instanceof Date) return value.toISOString().slice(0, 10)
  if ('richText' in value) return value.richText.map((t) => t.text).join('')
  if ('text' in value && typeof value.text === 'string') return value.text
  if ('error' in value) return String(value.error)
  return null
}

function readCell(cell: ExcelJS.Cell): CellValue | undefined {
  const out: CellValue = {}
  const raw = cell.value
  if (raw && typeof raw === 'object' && 'formula' in raw && raw.formula) {
    out.f = `=${raw.formula}`
    const result = raw.result
    out.v = result === undefined || (typeof result === 'object' && result !== null) ? null : (result as string | number | boolean)
  } else if (raw && typeof raw === 'object' && 'sharedFormula' in raw) {
    out.f = `=${cell.formula}`
    out.v = plainText(raw.result as ExcelJS.CellValue)
  } else out.v = plainText(raw)
  if (raw instanceof Date) out.ct = { fa: 'yyyy-MM-dd', t: 'd' }
  else if (typeof out.v === 'number') out.ct = { fa: cell.numFmt && cell.numFmt !== 'General' ? cell.numFmt : 'General', t: 'n' }
  else if (out.v !== null && out.v !== undefined) out.ct = { fa: 'General', t: 'g' }
  if (out.v !== null && out.v !== undefined) out.m = String(out.v)
  const font = cell.font ?? {}
  if (font.name) out.ff = font.name
  if (font.size && font.size !== DEFAULT_FONT_SIZE) out.fs = font.size
  if (font.bold) out.bl = 1
  if (font.italic) out.it = 1
  if (font.strike) out.cl = 1
  if (font.underline) out.un = 1
  const fc = fromArgb(font.color?.argb)
  if (fc && fc !== '#000000') out.fc = fc
  const fill = cell.fill
  if (fill?.type === 'pattern' && fill.pattern === 'solid') {
    const bg = fromArgb(fill.fgColor?.argb)
    if (bg) out.bg = bg
  }
  const a = cell.alignment ?? {}
  if (a.horizontal && H_CODE[a.horizontal] !== undefined) out.ht = H_CODE[a.horizontal]
  if (a.vertical && V_CODE[a.vertical] !== undefined) out.vt = V_CODE[a.vertical]
  if (a.wrapText) out.tb = 2
  if (a.textRotation !== undefined && ROTATION_CODE[String(a.textRotation)] !== undefined) out.tr = ROTATION_CODE[String(a.textRotation)]
  const styled = Object.keys(out).some((k) => k !== 'v')
  return out.v === null && !out.f && !styled ? undefined : out
}

function readBorders(cell: ExcelJS.Cell, r: number, c: number): BorderInfo | undefined {
  const b = cell.border
  if (!b) return undefined
  const side = (s: Partial<ExcelJS.Border> | undefined): BorderSide | undefined =>
    s?.style && BORDER_CODE[s.style] ? { style: BORDER_CODE[s.style], color: fromArgb(s.color?.argb) ?? '#000000' } : undefined
  const value = { row_index: r, col_index: c, l: side(b.left), r: side(b.right), t: side(b.top), b: side(b.bottom) }
  return value.l || value.r || value.t || value.b ? { rangeType: 'cell', value } : undefined
}

const pixelsBefore = (index: number, sizes: Record<string, number>, fallback: number) => {
  const whole = Math.floor(index)
  let px = 0
  for (let i = 0; i < whole; i++) px += sizes[i] ?? fallback
  return px + (index - whole) * (sizes[whole] ?? fallback)
}

/** An uploaded .xlsx as a workbook the editor opens; an unreadable file is a clear 400. */
export async function xlsxToWorkbook(bytes: Buffer, name: string): Promise<Workbook> {
  const book = new (await loadExcelJs()).Workbook()
  try {
    await book.xlsx.load(bytes as unknown as ArrayBuffer)
  } catch {
    throw invalid('无法读取该Excel文件，请上传.xlsx格式的文件！', 'file')
  }
  const sheets: Sheet[] = []
  book.worksheets.forEach((ws, order) => {
    const celldata: SheetCell[] = []
    const borderInfo: BorderInfo[] = []
    const rowlen: Record<string, number> = {}
    const columnlen: Record<string, number> = {}
    const merge: Record<string, { r: number; c: number; rs: number; cs: number }> = {}
    ws.columns?.forEach((col, i) => {
      if (col.width) columnlen[i] = Math.round(col.width * COLUMN_WIDTH_DIVISOR)
    })
    ws.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      if (row.height) rowlen[rowNumber - 1] = Math.round(row.height / ROW_HEIGHT_SCALE)
      row.eachCell({ includeEmpty: false }, (cell, colNumber) => {
        const r = rowNumber - 1
        const c = colNumber - 1
        if (cell.isMerged && cell.master !== cell) return
        const v = readCell(cell)
        if (v) celldata.push({ r, c, v })
        const border = readBorders(cell, r, c)
        if (border) borderInfo.push(border)
      })
    })
    for (const range of (ws.model as { merges?: string[] }).merges ?? []) {
      const [from, to] = range.split(':')
      const a = ws.getCell(from)
      const b = ws.getCell(to ?? from)
      const r = Number(a.row) - 1
      const c = Number(a.col) - 1
      const m = { r, c, rs: Number(b.row) - r, cs: Number(b.col) - c }
      merge[`${r}_${c}`] = m
      const master = celldata.find((cell) => cell.r === r && cell.c === c)
      if (master && master.v && typeof master.v === 'object') master.v.mc = { ...m }
      else celldata.push({ r, c, v: { mc: { ...m } } })
    }
    const images: SheetImage[] = []
    for (const image of ws.getImages()) {
      const media = book.getImage(Number(image.imageId))
      if (!media?.buffer || !['png', 'jpeg', 'gif'].includes(media.extension)) continue
      const tl = image.range.tl as unknown as { col: number; row: number }
      const br = image.range.br as unknown as { col: number; row: number } | undefined
      const left = pixelsBefore(tl.col, columnlen, DEFAULT_COLUMN_PX)
      const top = pixelsBefore(tl.row, rowlen, DEFAULT_ROW_PX)
      const ext = (image.range as { ext?: { width: number; height: number } }).ext
      const width = ext?.width ?? (br ? pixelsBefore(br.col, columnlen, DEFAULT_COLUMN_PX) - left : 100)
      const height = ext?.height ?? (br ? pixelsBefore(br.row, rowlen, DEFAULT_ROW_PX) - top : 100)
      const base64 = Buffer.from(media.buffer as unknown as ArrayBuffer).toString('base64')
      images.push({ id: `img_${order}_${images.length}`, src: `data:image/${media.extension};base64,${base64}`, left, top, width, height })
    }
    sheets.push({ name: ws.name, order, status: order === 0 ? 1 : 0, celldata, config: { merge, rowlen, columnlen, borderInfo }, images })
  })
  if (!sheets.length) throw invalid('Excel文件中没有工作表！', 'file')
  return checkWorkbook({ sheets, info: { name } }, name)
}
