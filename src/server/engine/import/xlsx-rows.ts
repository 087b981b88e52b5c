import { cellText } from './cells.js'
import { StringTable } from '../string-table.js'
import { entryBytes, entryString, entryText, zipEntries, ZipError, type ZipEntry } from './zip-entries.js'

/**
 * The rows of one sheet of an .xlsx as cell texts, streamed: the sheet's XML is inflated from the zip
 * chunk by chunk and cut into rows by a tokenizer that knows only what SpreadsheetML puts there
 * (`row`, `c`, `v`, `f`, `is`/`t`), so a million rows cost seconds and hold one chunk. What offices
 * write is read: shared strings (kept compact, string-table.ts) and inline strings, rich text runs
 * (phonetic runs left out), numbers, booleans, errors (blank), ISO dates (`t="d"`), numbers in a
 * date format (by the cell's style, built-in formats included: 14-22, 45-47, the Chinese 27-36 and
 * 50-58), the 1904 date system, formula results, cells and rows without `r` (counted on), and a
 * namespace prefix on the elements (`x:row`, as .NET writers do). Cell texts are what import-cells.ts
 * `cellText` makes of the value (numbers without binary noise, percent formats as "17%", dates as
 * YYYY-MM-DD[ HH:mm:ss], booleans 是/否), trimmed.
 */

export interface XlsxRow {
  /** The row number in the sheet (as Excel shows it). */
  line: number
  /** Texts by column (index 0 is column A); '' where a cell is empty or missing. */
  cells: string[]
}

/** A sheet of the workbook, in the workbook's order. */
export interface XlsxSheet {
  name: string
  /** visible, hidden or veryHidden. */
  state: string
  part: string
}

/** A row's XML may not grow beyond this (a file without row ends must not take the server's memory). */
const MAX_PENDING = 32 * 1024 * 1024

/** Built-in number formats (ECMA-376 18.8.30 and the Chinese locale's date formats). */
const BUILTIN_FORMATS: Record<number, string> = {
  9: '0%', 10: '0.00%',
  14: 'mm-dd-yy', 15: 'd-mmm-yy', 16: 'd-mmm', 17: 'mmm-yy', 18: 'h:mm AM/PM', 19: 'h:mm:ss AM/PM', 20: 'h:mm', 21: 'h:mm:ss', 22: 'm/d/yy h:mm',
  27: 'yyyy"年"m"月"', 28: 'm"月"d"日"', 29: 'm"月"d"日"', 30: 'm-d-yy', 31: 'yyyy"年"m"月"d"日"', 32: 'h"时"mm"分"', 33: 'h"时"mm"分"ss"秒"',
  34: '上午/下午 h"时"mm"分"', 35: '上午/下午 h"时"mm"分"ss"秒"', 36: 'yyyy"年"m"月"',
  45: 'mm:ss', 46: '[h]:mm:ss', 47: 'mmss.0',
  50: 'yyyy"年"m"月"', 51: 'm"月"d"日"', 52: 'yyyy"年"m"月"', 53: 'm"月"d"日"', 54: 'm"月"d"日"', 55: '上午/下午 h"时"mm"分"',
  56: '上午/下午 h"时"mm"分"ss"秒"', 57: 'yyyy"年"m"月"', 58: 'm"月"d"日"',
}

/** A format shows a date when, outside quotes and brackets, it has a date or time letter (as ExcelJS decides). */
export function isDateFormat(format: string | undefined): boolean {
  if (!format) return false
  return /[ymdhMsb]/.test(format.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''))
}

const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
/** OOXML's escape of characters XML cannot hold (`_x000D_`), and of such a text itself (`_x005F_`). */
const OOXML_ESCAPE = /_x([0-9a-fA-F]{4})_/g

function fromCodePoint(code: number): string {
  return code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ''
}

/** Text of XML character data: entities and OOXML escapes decoded. */
export function xmlText(raw: string): string {
  let text = raw
  if (text.includes('&'))
    text = text.replace(ENTITY, (_m, e: string) =>
      e[0] === '#' ? fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)) : NAMED[e],
    )
  if (text.includes('_x')) text = text.replace(OOXML_ESCAPE, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  return text
}

const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13

/** The value of attribute `name` in a start tag (`<c r="A1" t="s"`), decoded; undefined when absent. */
export function attribute(tag: string, name: string): string | undefined {
  const key = `${name}=`
  for (let i = tag.indexOf(key); i >= 0; i = tag.indexOf(key, i + 1)) {
    if (!isSpace(tag.charCodeAt(i - 1))) continue
    const quote = tag[i + key.length]
    if (quote !== '"' && quote !== "'") continue
    const end = tag.indexOf(quote, i + key.length + 1)
    if (end < 0) return undefined
    return xmlText(tag.slice(i + key.length + 1, end))
  }
  return undefined
}

/** Start tags of elements `local` (any prefix) in a small part, with their attributes. */
function startTags(xml: string, local: string): string[] {
  const out: string[] = []
  const re = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${local}(?=[\\s/>])[^>]*>`, 'g')
  for (let m = re.exec(xml); m; m = re.exec(xml)) out.push(m[0])
  return out
}

/** Position of the next start tag `open` (e.g. `<x:row`) from `from`: followed by a space, `>` or `/`. */
function findTag(xml: string, open: string, from: number, to = xml.length): number {
  for (let i = xml.indexOf(open, from); i >= 0 && i < to; i = xml.indexOf(open, i + 1)) {
    const next = xml.charCodeAt(i + open.length)
    if (isSpace(next) || next === 62 /* > */ || next === 47 /* / */) return i
  }
  return -1
}

/** The element prefix of a part (`x:` for `<x:worksheet …>`), from its root element. */
function prefixOf(xml: string): string {
  const m = /<([A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*[\s/>]/.exec(xml.replace(/<\?[^>]*\?>/g, '').replace(/<!--[\s\S]*?-->/g, ''))
  return m?.[1] ?? ''
}

/** Column number (1 = A) of a cell reference like `AB12`; 0 when it has no letters. */
function columnOf(ref: string): number {
  let col = 0
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i)
    if (c >= 65 && c <= 90) col = col * 26 + c - 64
    else if (c >= 97 && c <= 122) col = col * 26 + c - 96
    else break
  }
  return col
}

/** A part path relative to the part `from` (`worksheets/sheet1.xml` from `xl/workbook.xml`), lower-cased as zipEntries keys. */
function resolvePart(from: string, target: string): string {
  const parts = target.startsWith('/') ? [] : from.split('/').slice(0, -1)
  for (const seg of target.replace(/^\/+/, '').split('/')) {
    if (seg === '..') parts.pop()
    else if (seg && seg !== '.') parts.push(seg)
  }
  return parts.join('/').toLowerCase()
}

/** Relationships of a part (`xl/_rels/workbook.xml.rels` of `xl/workbook.xml`): id to target part and type. */
async function relationships(file: string, entries: Map<string, ZipEntry>, part: string): Promise<Map<string, { target: string; type: string }>> {
  const slash = part.lastIndexOf('/')
  const relsName = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`.toLowerCase()
  const out = new Map<string, { target: string; type: string }>()
  const entry = entries.get(relsName)
  if (!entry) return out
  for (const tag of startTags(await entryString(file, entry), 'Relationship')) {
    const id = attribute(tag, 'Id')
    const target = attribute(tag, 'Target')
    if (id && target && attribute(tag, 'TargetMode') !== 'External') out.set(id, { target: resolvePart(part, target), type: attribute(tag, 'Type') ?? '' })
  }
  return out
}

/**
 * The next start tag `open` at or after a position of one text: a tag that is far away or absent (no
 * phonetic run among the font runs LibreOffice writes for every string) is searched for once while the
 * positions asked for move forward, not once per string item up to the text's end.
 */
class TagCursor {
  /** The last search: from where, and what it found (-1: nothing up to the end). */
  private from = Infinity
  private found = -1

  constructor(
    private readonly xml: string,
    private readonly open: string,
  ) {}

  at(from: number): number {
    if (from < this.from || (this.found >= 0 && from > this.found)) {
      this.from = from
      this.found = findTag(this.xml, this.open, from)
    }
    return this.found
  }
}

/** Reads the string items (`<si>`, `<is>`) of one text, whose elements have the prefix `p`. */
export class ItemReader {
  private readonly t: TagCursor
  private readonly phonetic: TagCursor
  private readonly T_END: string
  private readonly RPH_END: string

  constructor(
    private readonly xml: string,
    p: string,
  ) {
    this.t = new TagCursor(xml, `<${p}t`)
    this.phonetic = new TagCursor(xml, `<${p}rPh`)
    this.T_END = `</${p}t>`
    this.RPH_END = `</${p}rPh>`
  }

  /** Texts of the `<t>` elements of the string item (`<si>`, `<is>`) between `from` and `to`, without phonetic runs. */
  text(from: number, to: number): string {
    const { xml, T_END, RPH_END } = this
    let out = ''
    let at = from
    for (;;) {
      const t = this.t.at(at)
      if (t < 0 || t >= to) break
      const phonetic = this.phonetic.at(at)
      if (phonetic >= 0 && phonetic < t) {
        const end = xml.indexOf(RPH_END, phonetic)
        if (end < 0 || end > to) break
        at = end + RPH_END.length
        continue
      }
      const open = xml.indexOf('>', t)
      if (open < 0 || open >= to) break
      if (xml.charCodeAt(open - 1) === 47 /* <t/> */) {
        at = open + 1
        continue
      }
      const close = xml.indexOf(T_END, open)
      if (close < 0 || close > to) break
      out += xml.slice(open + 1, close)
      at = close + T_END.length
    }
    return xmlText(out)
  }
}

/**
 * An XML part's text in pieces that end after the last complete `</local>` element seen so far (with
 * the part's element prefix, found on its root element), so no such element is ever cut in two;
 * the rest waits for the next chunk.
 */
async function* completeChunks(chunks: AsyncIterable<string>, local: string): AsyncGenerator<{ xml: string; prefix: string }> {
  // The text not yet given, in pieces: joined only when an element ends in it, so an element spanning
  // many chunks is neither copied nor searched once per chunk.
  let pieces: string[] = []
  let length = 0
  let prefix: string | undefined
  let closing = ''
  /** The last characters of the pending text, where a closing tag cut by a chunk's end begins. */
  let tail = ''
  for await (const chunk of chunks) {
    pieces.push(chunk)
    length += chunk.length
    if (prefix === undefined) {
      const head = pieces.join('')
      pieces = [head]
      if (!/<[A-Za-z_][^>]*>/.test(head.replace(/<\?[^>]*\?>/g, ''))) continue
      prefix = prefixOf(head)
      closing = `</${prefix}${local}>`
      tail = head.slice(0, -chunk.length)
    }
    const probe = tail + chunk
    const end = probe.lastIndexOf(closing)
    if (end < 0) {
      if (length > MAX_PENDING) throw new ZipError('xlsx: element too large')
      tail = probe.slice(-(closing.length - 1))
      continue
    }
    const pending = pieces.join('')
    const cut = pending.length - probe.length + end + closing.length
    yield { xml: pending.slice(0, cut), prefix }
    const rest = pending.slice(cut)
    pieces = rest ? [rest] : []
    length = rest.length
    tail = rest.slice(-(closing.length - 1))
  }
  const rest = pieces.join('')
  if (rest) yield { xml: rest, prefix: prefix ?? prefixOf(rest) }
}

/**
 * The shared strings of a workbook, trimmed as cellText trims them, in a compact table, read as far as
 * the rows need them: writers put a string in the table when a cell first uses it (LibreOffice puts every
 * text there, 27 MB for 150,000 strings), so the header row needs the first few, and reading the rest
 * goes along with reading the rows instead of before the first one.
 */
class SharedStrings {
  private readonly table = new StringTable()
  private readonly chunks: AsyncGenerator<{ xml: string; prefix: string }> | undefined
  /** Every string has been read (or the workbook has none). */
  complete: boolean

  constructor(file: string, entry: ZipEntry | undefined) {
    this.chunks = entry ? completeChunks(entryText(file, entry), 'si') : undefined
    this.complete = !entry
  }

  /** The string at `index`: undefined when not read yet (see `readTo`) or past the end. */
  get(index: number): string | undefined {
    return this.table.get(index)
  }

  /** Reads on until the string at `index` is read, or there are no more. */
  async readTo(index: number): Promise<void> {
    while (!this.complete && this.table.size <= index) {
      const next = await this.chunks!.next()
      if (next.done) this.complete = true
      else this.add(next.value.xml, next.value.prefix)
    }
  }

  /** Stops reading the part (the rows ended first). */
  async close(): Promise<void> {
    this.complete = true
    await this.chunks?.return(undefined)
  }

  private add(xml: string, p: string): void {
    const SI = `<${p}si`
    const SI_END = `</${p}si>`
    const items = new ItemReader(xml, p)
    for (let at = findTag(xml, SI, 0); at >= 0; at = findTag(xml, SI, at)) {
      const open = xml.indexOf('>', at)
      if (open < 0) break
      if (xml.charCodeAt(open - 1) === 47) {
        this.table.add('')
        at = open + 1
        continue
      }
      const close = xml.indexOf(SI_END, open)
      if (close < 0) break
      this.table.add(items.text(open + 1, close).trim())
      at = close + SI_END.length
    }
  }
}

/** Number formats by cell style index (`s`), and which of them show dates. */
interface CellStyles {
  format: (string | undefined)[]
  date: boolean[]
}

async function cellStyles(file: string, entry: ZipEntry | undefined): Promise<CellStyles> {
  const styles: CellStyles = { format: [], date: [] }
  if (!entry) return styles
  const xml = await entryString(file, entry)
  const custom = new Map<number, string>()
  for (const tag of startTags(xml, 'numFmt')) {
    const id = Number(attribute(tag, 'numFmtId'))
    const code = attribute(tag, 'formatCode')
    if (Number.isInteger(id) && code !== undefined) custom.set(id, code.replace(/\\(.)/g, '$1'))
  }
  // Only cellXfs holds the formats of cells (cellStyleXfs has <xf> elements too).
  const xfs = /<(?:[A-Za-z_][\w.-]*:)?cellXfs[\s>][\s\S]*?<\/(?:[A-Za-z_][\w.-]*:)?cellXfs>/.exec(xml)?.[0] ?? ''
  for (const tag of startTags(xfs, 'xf')) {
    const id = Number(attribute(tag, 'numFmtId') ?? 0)
    const format = custom.get(id) ?? BUILTIN_FORMATS[id]
    styles.format.push(format)
    styles.date.push(isDateFormat(format))
  }
  return styles
}

/** The workbook's sheets and what reading one needs. */
export interface XlsxBook {
  sheets: XlsxSheet[]
  /** The rows of a sheet, in order (empty rows are not given). */
  rows(sheet: XlsxSheet): AsyncGenerator<XlsxRow>
  /**
   * The row elements of a sheet, counted in one pass over its inflated bytes without reading them (a
   * second or so for a million rows): a bound of its rows, blank ones included. The shared strings are
   * inflated too (not read: the rows read them as they need them), so a damaged part of either is found
   * before the first row is given.
   */
  rowElements(sheet: XlsxSheet): Promise<number>
}

const MS_PER_DAY = 24 * 3600 * 1000

/** Opens an .xlsx on disk: its sheets are listed, shared strings and styles read when a sheet is. */
export async function openXlsx(file: string): Promise<XlsxBook> {
  const entries = zipEntries(file)
  const rootRels = await relationships(file, entries, '')
  const bookPart = [...rootRels.values()].find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml'
  const bookEntry = entries.get(bookPart)
  if (!bookEntry) throw new ZipError('xlsx: no workbook')
  const bookXml = await entryString(file, bookEntry)
  const rels = await relationships(file, entries, bookPart)
  const date1904 = startTags(bookXml, 'workbookPr').some((tag) => /^(1|true)$/.test(attribute(tag, 'date1904') ?? ''))
  const sheets: XlsxSheet[] = []
  for (const tag of startTags(bookXml, 'sheet')) {
    const id = attribute(tag, 'r:id') ?? /\s[\w.-]+:id=["']([^"']*)["']/.exec(tag)?.[1]
    const rel = id ? rels.get(id) : undefined
    // Worksheets only: a chart sheet or dialog sheet holds no rows.
    if (rel && rel.type.endsWith('/worksheet') && entries.has(rel.target)) sheets.push({ name: attribute(tag, 'name') ?? '', state: attribute(tag, 'state') ?? 'visible', part: rel.target })
  }
  const partOf = (type: string) => [...rels.values()].find((r) => r.type.endsWith(type))?.target

  async function* rows(sheet: XlsxSheet): AsyncGenerator<XlsxRow> {
    const strings = new SharedStrings(file, entries.get(partOf('/sharedStrings') ?? 'xl/sharedstrings.xml'))
    const styles = await cellStyles(file, entries.get(partOf('/styles') ?? 'xl/styles.xml'))
    const epoch = 25569 - (date1904 ? 1462 : 0)
    const dateText = (serial: number) => cellText(new Date(Math.round((serial - epoch) * MS_PER_DAY)))

    let p: string | undefined
    let ROW = ''
    let ROW_END = ''
    let C = ''
    let C_END = ''
    let V = ''
    let V_END = ''
    let IS = ''
    let DATA_END = ''
    let line = 0
    /** The highest shared string a row named that has not been read yet (-1: none). */
    let unread = -1
    /** The string items of the current chunk (inline strings). */
    let items: ItemReader | undefined

    /** A cell's text from its start tag and its content (`from`..`to` in `xml`). */
    const value = (xml: string, tag: string, from: number, to: number): string => {
      const t = attribute(tag, 't')
      if (t === 'inlineStr') {
        const is = findTag(xml, IS, from, to)
        return is < 0 ? '' : items!.text(is, to).trim()
      }
      const v = findTag(xml, V, from, to)
      if (v < 0) return ''
      const open = xml.indexOf('>', v)
      if (xml.charCodeAt(open - 1) === 47) return ''
      const close = xml.indexOf(V_END, open)
      if (close < 0 || close > to) return ''
      const raw = xml.slice(open + 1, close)
      switch (t) {
        case 's': {
          const index = Number(raw)
          const text = strings.get(index)
          if (text === undefined && !strings.complete && index > unread) unread = index
          return text ?? ''
        }
        case 'str':
          return xmlText(raw).trim()
        case 'b':
          return cellText(Number(raw) !== 0)
        case 'e':
          return ''
        case 'd': {
          // An ISO 8601 date: its fields are the wall-clock time, as a serial date's are.
          const text = xmlText(raw).trim()
          const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) || !text.includes('T') ? text : `${text}Z`)
          return cellText(d)
        }
        default: {
          const n = parseFloat(raw)
          if (!Number.isFinite(n)) return ''
          const s = Number(attribute(tag, 's') ?? 0)
          return styles.date[s] ? dateText(n) : cellText(n, styles.format[s])
        }
      }
    }

    /** The cell texts of the row element whose content is `open`..`close` in `xml`. */
    const rowCells = (xml: string, open: number, close: number): string[] => {
      const cells: string[] = []
      let col = 0
      for (let c = findTag(xml, C, open, close); c >= 0; c = findTag(xml, C, c, close)) {
        const cOpen = xml.indexOf('>', c)
        const tag = xml.slice(c, cOpen)
        const ref = attribute(tag, 'r')
        const n = ref ? columnOf(ref) : 0
        col = n > 0 ? n : col + 1
        if (xml.charCodeAt(cOpen - 1) === 47) {
          c = cOpen + 1
          continue
        }
        const cClose = xml.indexOf(C_END, cOpen)
        const end = cClose < 0 || cClose > close ? close : cClose
        const text = value(xml, tag, cOpen + 1, end)
        if (text) {
          while (cells.length < col - 1) cells.push('')
          cells[col - 1] = text
        }
        c = end
      }
      return cells
    }

    try {
      for await (const chunk of completeChunks(entryText(file, entries.get(sheet.part)!), 'row')) {
        const xml = chunk.xml
        items = new ItemReader(xml, chunk.prefix)
        if (p === undefined) {
          p = chunk.prefix
          ROW = `<${p}row`
          ROW_END = `</${p}row>`
          C = `<${p}c`
          C_END = `</${p}c>`
          V = `<${p}v`
          V_END = `</${p}v>`
          IS = `<${p}is`
          DATA_END = `</${p}sheetData>`
        }
        for (let at = findTag(xml, ROW, 0); at >= 0; at = findTag(xml, ROW, at)) {
          const open = xml.indexOf('>', at)
          if (open < 0) break
          const rowTag = xml.slice(at, open)
          const r = Number(attribute(rowTag, 'r'))
          line = Number.isInteger(r) && r > 0 ? r : line + 1
          if (xml.charCodeAt(open - 1) === 47) {
            at = open + 1
            continue
          }
          const close = xml.indexOf(ROW_END, open)
          if (close < 0) break
          let cells = rowCells(xml, open, close)
          // A row naming shared strings not read yet is read again once they are (rarely: a chunk of them is read at a time).
          if (unread >= 0) {
            await strings.readTo(unread)
            unread = -1
            cells = rowCells(xml, open, close)
          }
          if (cells.length) yield { line, cells }
          at = close + ROW_END.length
        }
        // Nothing after the sheet's data is a row: the rest of the part is not read.
        if (xml.includes(DATA_END)) break
      }
    } finally {
      await strings.close()
    }
  }

  async function rowElements(sheet: XlsxSheet): Promise<number> {
    let count = 0
    let open: Buffer | undefined
    let tail = Buffer.alloc(0)
    for await (const chunk of entryBytes(file, entries.get(sheet.part)!)) {
      const bytes = tail.length ? Buffer.concat([tail, chunk]) : chunk
      // The element prefix is on the root element, in the first chunk (its name is ASCII).
      open ??= Buffer.from(`<${prefixOf(bytes.toString('latin1'))}row`)
      let at = bytes.indexOf(open)
      for (; at >= 0 && at + open.length < bytes.length; at = bytes.indexOf(open, at + 1)) {
        const next = bytes[at + open.length]
        if (isSpace(next) || next === 62 /* > */ || next === 47 /* / */) count++
      }
      // A tag cut by the chunk's end is looked at again with the next chunk.
      tail = Buffer.from(bytes.subarray(at >= 0 ? at : Math.max(0, bytes.length - open.length)))
    }
    const strings = entries.get(partOf('/sharedStrings') ?? 'xl/sharedstrings.xml')
    if (strings) for await (const _chunk of entryBytes(file, strings));
    return count
  }

  return { sheets, rows, rowElements }
}
