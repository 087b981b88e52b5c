import { invalid } from '../../platform/errors.js'

/**
 * The workbook of an online spreadsheet as it is stored: Luckysheet-format JSON `{sheets, info}` (001 §3
 * Spreadsheet content) with sparse `celldata` ({r, c, v}); FortuneSheet's runtime 2-D `data` is
 * turned into `celldata` before saving, so one shape reaches the database, the export and the editor.
 */
export interface SheetCell {
  r: number
  c: number
  v: CellValue | string | number | boolean | null
}

/** The cell attributes the export maps (Luckysheet names): value, display, formula, format, styles, merge. */
export interface CellValue {
  v?: string | number | boolean | null
  m?: string | number | null
  f?: string
  ct?: { fa?: string; t?: string; s?: { v?: string }[] }
  bg?: string
  fc?: string
  ff?: string | number
  fs?: number | string
  bl?: number
  it?: number
  cl?: number
  un?: number
  ht?: number | string
  vt?: number | string
  tb?: number | string
  tr?: number | string
  mc?: { r: number; c: number; rs?: number; cs?: number }
  [key: string]: unknown
}

export interface MergeRange {
  r: number
  c: number
  rs: number
  cs: number
}

export interface BorderSide {
  style?: number | string
  color?: string
}

export interface BorderInfo {
  rangeType?: 'range' | 'cell'
  borderType?: string
  style?: number | string
  color?: string
  range?: { row: [number, number]; column: [number, number] }[]
  value?: { row_index: number; col_index: number; l?: BorderSide; r?: BorderSide; t?: BorderSide; b?: BorderSide }
}

export interface SheetImage {
  id?: string
  src: string
  left: number
  top: number
  width: number
  height: number
}

export interface SheetConfig {
  merge?: Record<string, MergeRange>
  rowlen?: Record<string, number>
  columnlen?: Record<string, number>
  rowhidden?: Record<string, number>
  colhidden?: Record<string, number>
  borderInfo?: BorderInfo[]
  [key: string]: unknown
}

export interface Sheet {
  name: string
  id?: string
  order?: number
  status?: number
  row?: number
  column?: number
  celldata: SheetCell[]
  config?: SheetConfig
  images?: SheetImage[]
  [key: string]: unknown
}

export interface Workbook {
  sheets: Sheet[]
  info: { name: string; [key: string]: unknown }
}

/** 20 MB of JSON: a 10,000 × 25 sheet of short values is about 15 MB (bench spreadsheet). */
export const CONTENT_MAX_BYTES = 20 * 1024 * 1024
export const CONTENT_TOO_LARGE = '表格内容不能超过20MB，请拆分后再保存！'
export const CONTENT_INVALID = '表格内容格式不正确！'
/** Excel's own bounds. */
const MAX_ROWS = 1_048_576
const MAX_COLUMNS = 16_384
const MAX_SHEETS = 100
/** Images travel inside the workbook (the server never fetches a URL to export one). */
const IMAGE_SRC = /^data:image\/(png|jpe?g|gif);base64,/

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v)
const isIndex = (v: unknown, max: number) => Number.isInteger(v) && (v as number) >= 0 && (v as number) < max

/** A new spreadsheet: one empty sheet. */
export function emptyWorkbook(name: string): Workbook {
  return { sheets: [{ name: 'Sheet1', order: 0, status: 1, celldata: [], config: {} }], info: { name } }
}

/**
 * Parses and checks stored or sent content: a JSON string of at most CONTENT_MAX_BYTES, `sheets` a
 * non-empty array of named sheets whose cells sit inside Excel's grid, `config` and `images` of the
 * shapes the editor and the export read. Anything else is a 400 with a Chinese message, never a 5xx.
 */
export function parseWorkbook(content: unknown, name: string): Workbook {
  if (typeof content !== 'string' || !content.trim()) throw invalid('请传入表格内容', 'content')
  if (Buffer.byteLength(content, 'utf8') > CONTENT_MAX_BYTES) throw invalid(CONTENT_TOO_LARGE, 'content')
  let parsed: unknown
  try {
    parsed = JSON.parse(content)
  } catch {
    throw invalid(CONTENT_INVALID, 'content')
  }
  return checkWorkbook(parsed, name)
}

export function checkWorkbook(parsed: unknown, name: string): Workbook {
  const bad = (why: string) => invalid(`${CONTENT_INVALID}${why}`, 'content')
  // FortuneSheet's getAllSheets() answers the bare sheet array; Luckysheet wraps it with info.
  const root = Array.isArray(parsed) ? { sheets: parsed } : parsed
  if (!isObject(root) || !Array.isArray(root.sheets)) throw bad('缺少sheets')
  if (!root.sheets.length) throw bad('至少需要一个工作表')
  if (root.sheets.length > MAX_SHEETS) throw bad(`工作表不能超过${MAX_SHEETS}个`)
  const names = new Set<string>()
  const sheets = root.sheets.map((raw, i): Sheet => {
    if (!isObject(raw)) throw bad(`第${i + 1}个工作表不是对象`)
    const sheetName = typeof raw.name === 'string' && raw.name.trim() ? raw.name.trim() : `Sheet${i + 1}`
    if (sheetName.length > 31) throw bad(`工作表名称不能超过31个字符`)
    if (names.has(sheetName)) throw bad(`工作表名称重复：${sheetName}`)
    names.add(sheetName)
    const celldata = raw.celldata ?? []
    if (!Array.isArray(celldata)) throw bad(`工作表${sheetName}的celldata不是数组`)
    for (const cell of celldata) {
      if (!isObject(cell) || !isIndex(cell.r, MAX_ROWS) || !isIndex(cell.c, MAX_COLUMNS)) throw bad(`工作表${sheetName}有单元格位置不正确`)
      const v = cell.v
      if (v !== null && v !== undefined && !['string', 'number', 'boolean', 'object'].includes(typeof v)) throw bad(`工作表${sheetName}有单元格值不正确`)
      if (Array.isArray(v)) throw bad(`工作表${sheetName}有单元格值不正确`)
      if (isObject(v) && v.f !== undefined && typeof v.f !== 'string') throw bad(`工作表${sheetName}有公式不正确`)
    }
    if (raw.config !== undefined && raw.config !== null && !isObject(raw.config)) throw bad(`工作表${sheetName}的config不是对象`)
    const config = (raw.config ?? {}) as SheetConfig
    if (config.merge !== undefined && !isObject(config.merge)) throw bad(`工作表${sheetName}的合并单元格不正确`)
    for (const m of Object.values(config.merge ?? {}))
      if (!isObject(m) || !isIndex(m.r, MAX_ROWS) || !isIndex(m.c, MAX_COLUMNS) || !isIndex(m.rs, MAX_ROWS + 1) || !isIndex(m.cs, MAX_COLUMNS + 1))
        throw bad(`工作表${sheetName}的合并单元格不正确`)
    for (const key of ['rowlen', 'columnlen', 'rowhidden', 'colhidden'] as const) {
      const sizes = config[key]
      if (sizes === undefined || sizes === null) continue
      if (!isObject(sizes) || Object.values(sizes).some((n) => typeof n !== 'number' || !Number.isFinite(n) || n < 0)) throw bad(`工作表${sheetName}的${key}不正确`)
    }
    if (config.borderInfo !== undefined && config.borderInfo !== null && (!Array.isArray(config.borderInfo) || config.borderInfo.some((b) => !isObject(b))))
      throw bad(`工作表${sheetName}的边框不正确`)
    const images = raw.images ?? []
    if (!Array.isArray(images)) throw bad(`工作表${sheetName}的图片不正确`)
    for (const img of images)
      if (!isObject(img) || typeof img.src !== 'string' || !IMAGE_SRC.test(img.src) || !['left', 'top', 'width', 'height'].every((k) => typeof img[k] === 'number' && Number.isFinite(img[k])))
        throw bad(`工作表${sheetName}的图片不正确`)
    return { ...raw, name: sheetName, celldata: celldata as SheetCell[], config, images: images as SheetImage[] }
  })
  const info = isObject(root.info) ? root.info : {}
  return { sheets, info: { ...info, name } }
}
