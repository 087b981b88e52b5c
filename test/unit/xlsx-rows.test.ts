import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { cellText } from '../../src/server/engine/import/cells.js'
import { openXlsx, type XlsxRow } from '../../src/server/engine/import/xlsx-rows.js'
import { StringTable } from '../../src/server/engine/string-table.js'
import { zipEntries } from '../../src/server/engine/import/zip-entries.js'
import { calcWorkbook, type CalcCell } from '../support/libreoffice-workbook.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xlsx-rows-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
let n = 0
const fileOf = (bytes: Buffer | Uint8Array) => {
  const file = path.join(dir, `book${++n}.xlsx`)
  fs.writeFileSync(file, bytes)
  return file
}

async function readAll(file: string, sheetName?: string): Promise<XlsxRow[]> {
  const book = await openXlsx(file)
  const sheet = sheetName ? book.sheets.find((s) => s.name === sheetName)! : book.sheets[0]
  const out: XlsxRow[] = []
  for await (const row of book.rows(sheet)) out.push(row)
  return out
}

/** What the import read before (ExcelJS's streaming reader through cellText), row by row. */
async function readWithExcelJs(file: string): Promise<XlsxRow[]> {
  const out: XlsxRow[] = []
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(fs.createReadStream(file), { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' })
  for await (const sheet of reader) {
    for await (const row of sheet as unknown as AsyncIterable<ExcelJS.Row>) {
      const cells: string[] = []
      row.eachCell({ includeEmpty: false }, (cell, col) => {
        const text = cellText(cell.value, cell.numFmt)
        if (!text) return
        while (cells.length < col - 1) cells.push('')
        cells[col - 1] = text
      })
      if (cells.length) out.push({ line: row.number, cells })
    }
    break
  }
  return out
}

/** One sheet of what offices put in cells; row 3 leaves gaps, row 4 is blank. */
function fill(sheet: ExcelJS.Worksheet) {
  sheet.addRow(['编号', '名称', '数量', '比例', '日期', '时间', '布尔', '富文本', '公式', '错误'])
  sheet.addRow([
    '  SP-001 ',
    'a & <b> "c"',
    0.1 + 0.2,
    0.17,
    new Date(Date.UTC(2024, 2, 5)),
    new Date(Date.UTC(2024, 2, 5, 13, 4, 5)),
    true,
    { richText: [{ text: '红' }, { font: { bold: true }, text: '色 ' }] },
    { formula: 'A2&"x"', result: 'SP-001x' },
    { error: '#N/A' },
  ])
  sheet.getRow(3).getCell(1).value = '商品二'
  sheet.getRow(3).getCell(4).value = 12345678901234
  sheet.getRow(5).values = [false, -1.25e-7, { formula: '1+1', result: 2 }]
  sheet.getCell('D2').numFmt = '0%'
  sheet.getCell('E2').numFmt = 'yyyy-mm-dd'
  sheet.getCell('F2').numFmt = 'yyyy-mm-dd hh:mm:ss'
}

describe('xlsx rows', () => {
  it('reads what ExcelJS writes as the old reader did: shared strings, inline strings, numbers, percent, dates, booleans, rich text, formulas, errors, gaps', async () => {
    const book = new ExcelJS.Workbook()
    fill(book.addWorksheet('商品'))
    const shared = fileOf(Buffer.from(await book.xlsx.writeBuffer()))
    const streamed: string[] = []
    for (const useSharedStrings of [true, false]) {
      const file = path.join(dir, `stream-${useSharedStrings}.xlsx`)
      const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings })
      const sheet = writer.addWorksheet('商品')
      fill(sheet)
      sheet.commit()
      await writer.commit()
      streamed.push(file)
    }
    const zip = await JSZip.loadAsync(fs.readFileSync(streamed[1]))
    expect(zip.file('xl/sharedStrings.xml')).toBeNull()
    expect(await (await JSZip.loadAsync(fs.readFileSync(streamed[0]))).file('xl/sharedStrings.xml')?.async('string')).toContain('SP-001')
    for (const file of [shared, ...streamed]) {
      const rows = await readAll(file)
      // ExcelJS's streaming reader keeps only the last run of an inline rich text ("色"): column H aside.
      const withoutRich = (list: XlsxRow[]) => list.map((r) => ({ ...r, cells: r.cells.map((c, i) => (i === 7 ? '' : c)) }))
      expect(withoutRich(rows)).toEqual(withoutRich(await readWithExcelJs(file)))
      expect(rows.map((r) => r.line)).toEqual([1, 2, 3, 5])
      expect(rows[1].cells).toEqual(['SP-001', 'a & <b> "c"', '0.3', '17%', '2024-03-05', '2024-03-05 13:04:05', '是', '红色', 'SP-001x'])
      expect(rows[2].cells).toEqual(['商品二', '', '', '12345678901234'])
      expect(rows[3].cells).toEqual(['否', '-1.25e-7', '2'])
    }
  })

  it('lists the sheets in the workbook order with their state, and reads the one asked for', async () => {
    const book = new ExcelJS.Workbook()
    book.addWorksheet('说明').addRow(['说明文字'])
    const hidden = book.addWorksheet('隐藏')
    hidden.state = 'hidden'
    hidden.addRow(['h'])
    book.addWorksheet('数据').addRow(['d'])
    const file = fileOf(Buffer.from(await book.xlsx.writeBuffer()))
    const opened = await openXlsx(file)
    expect(opened.sheets.map((s) => [s.name, s.state])).toEqual([
      ['说明', 'visible'],
      ['隐藏', 'hidden'],
      ['数据', 'visible'],
    ])
    expect((await readAll(file, '数据')).map((r) => r.cells)).toEqual([['d']])
  })

  it('reads hand-written SpreadsheetML: element prefixes, cells and rows without r, phonetic runs, escapes, 1904 dates, built-in Chinese date formats, ISO date cells', async () => {
    const ns = 'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    const zip = new JSZip()
    zip.file('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
    zip.file('_rels/.rels', '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="/xl/workbook.xml"/></Relationships>')
    zip.file('xl/workbook.xml', `<?xml version="1.0"?><x:workbook ${ns} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><x:workbookPr date1904="1"/><x:sheets><x:sheet name="S" sheetId="1" r:id="rId7"/></x:sheets></x:workbook>`)
    zip.file('xl/_rels/workbook.xml.rels', '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId7" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/data.xml"/><Relationship Id="rId8" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="strings.xml"/><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>')
    zip.file('xl/strings.xml', `<?xml version="1.0"?><x:sst ${ns}><x:si><x:t xml:space="preserve"> 东京 </x:t><x:rPh sb="0" eb="2"><x:t>とうきょう</x:t></x:rPh></x:si><x:si><x:r><x:rPr><x:b/></x:rPr><x:t>A&amp;B</x:t></x:r><x:r><x:t>_x000D_C</x:t></x:r></x:si><x:si/></x:sst>`)
    zip.file('xl/styles.xml', `<?xml version="1.0"?><x:styleSheet ${ns}><x:numFmts count="1"><x:numFmt numFmtId="170" formatCode="yyyy\\/m\\/d"/></x:numFmts><x:cellStyleXfs count="1"><x:xf numFmtId="14"/></x:cellStyleXfs><x:cellXfs count="3"><x:xf numFmtId="0"/><x:xf numFmtId="170"/><x:xf numFmtId="31"/></x:cellXfs></x:styleSheet>`)
    zip.file('xl/worksheets/data.xml', `<?xml version="1.0"?><x:worksheet ${ns}><x:sheetData><x:row><x:c t="s"><x:v>0</x:v></x:c><x:c t="s"><x:v>1</x:v></x:c><x:c t="s"><x:v>2</x:v></x:c><x:c s="1"><x:v>0</x:v></x:c></x:row><x:row r="3"/><x:row r="4"><x:c r="B4" s="2"><x:v>43524</x:v></x:c><x:c t="d"><x:v>2024-02-29T08:30:00</x:v></x:c><x:c/><x:c t="inlineStr"><x:is><x:t>内联</x:t></x:is></x:c><x:c><x:v/></x:c></x:row><x:row><x:c t="n"><x:v>7</x:v></x:c></x:row></x:sheetData><x:rowBreaks count="1"><x:brk id="1"/></x:rowBreaks></x:worksheet>`)
    const file = fileOf(await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }))
    expect(await readAll(file)).toEqual([
      { line: 1, cells: ['东京', 'A&B\rC', '', '1904-01-01'] },
      { line: 4, cells: ['', '2023-03-01', '2024-02-29 08:30:00', '', '内联'] },
      { line: 5, cells: ['7'] },
    ])
  })

  it('reads a LibreOffice file exactly: shared strings in font runs over several chunks, inline rich strings, escapes', async () => {
    const rows = 4000
    const expected: XlsxRow[] = [{ line: 1, cells: ['编号', '名称', '备注', '数量'] }]
    function* cells(): Generator<CalcCell[]> {
      yield expected[0].cells
      for (let i = 1; i <= rows; i++) {
        // Distinct strings all through the file: the shared strings (about 1 MB of XML) are read as the rows need them.
        const row: CalcCell[] = [`  SP-${i} `, `商品 A&B <${i}> "中"`, { inline: `备注${i % 13}&amp;` }, i / 8]
        expected.push({ line: i + 1, cells: [`SP-${i}`, `商品 A&B <${i}> "中"`, `备注${i % 13}&amp;`, String(i / 8)] })
        yield row
      }
    }
    const file = fileOf(await calcWorkbook('商品', cells()))
    const strings = await (await JSZip.loadAsync(fs.readFileSync(file))).file('xl/sharedStrings.xml')!.async('string')
    expect(strings.length).toBeGreaterThan(4 * 256 * 1024)
    expect(strings).toContain('<si><r><rPr><b val="true"/>')
    expect(strings).not.toContain('<rPh')
    expect(await readAll(file)).toEqual(expected)
  }, 60_000)

  it('reads LibreOffice-style string items: runs, phonetic runs left out, xml:space, entities, empty texts, inline rich strings', async () => {
    const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    const rPr = '<rPr><sz val="10"/><rFont val="Arial"/><family val="2"/></rPr>'
    const zip = new JSZip()
    zip.file('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
    zip.file('_rels/.rels', '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
    zip.file('xl/workbook.xml', `<?xml version="1.0"?><workbook ${ns} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" state="visible" r:id="rId2"/></sheets></workbook>`)
    zip.file('xl/_rels/workbook.xml.rels', '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>')
    const items = [
      // Runs, with a phonetic run between them and the phonetic properties after them.
      `<si><r>${rPr}<t xml:space="preserve">東</t></r><rPh sb="0" eb="1"><t>ひがし</t></rPh><r><rPr><b val="true"/></rPr><t xml:space="preserve">京 &amp; &#x4E2D;&#20013;</t></r><phoneticPr fontId="1" type="noConversion"/></si>`,
      // Blanks kept inside, trimmed at the ends; an empty run; a phonetic run first.
      `<si><rPh sb="0" eb="0"><t>よみ</t></rPh><r>${rPr}<t xml:space="preserve">  a  b </t></r><r>${rPr}<t/></r><r>${rPr}<t xml:space="preserve">&lt;c&gt; &quot;d&apos;_x000A_</t></r></si>`,
      '<si><t>plain</t></si>',
      '<si/>',
      `<si><r>${rPr}<t xml:space="preserve">   </t></r></si>`,
    ]
    zip.file('xl/sharedStrings.xml', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst ${ns} count="5" uniqueCount="5">${items.join('')}</sst>`)
    const row = (r: number, cells: string) => `<row r="${r}" customFormat="false" ht="12.8" hidden="false" customHeight="false" outlineLevel="0" collapsed="false">${cells}</row>`
    const s = (ref: string, i: number) => `<c r="${ref}" s="0" t="s"><v>${i}</v></c>`
    zip.file(
      'xl/worksheets/sheet1.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet ${ns}><sheetData>` +
        row(1, s('A1', 0) + s('B1', 1) + s('C1', 2) + s('D1', 3) + s('E1', 4) + s('F1', 9)) +
        row(2, `<c r="A2" s="0" t="inlineStr"><is><r>${rPr}<t xml:space="preserve"> 内</t></r><rPh sb="0" eb="1"><t>うち</t></rPh><r>${rPr}<t>联 &#x4E2D;</t></r></is></c><c r="C2" s="0" t="n"><v>1.5</v></c>`) +
        '</sheetData></worksheet>',
    )
    const file = fileOf(await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }))
    expect(await readAll(file)).toEqual([
      { line: 1, cells: ['東京 & 中中', 'a  b <c> "d\'', 'plain'] },
      { line: 2, cells: ['内联 中', '', '1.5'] },
    ])
  })

  it('gives the first rows before the rest of the shared strings is read', async () => {
    const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    const zip = new JSZip()
    zip.file('_rels/.rels', '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
    zip.file('xl/workbook.xml', `<workbook ${ns} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId2"/></sheets></workbook>`)
    zip.file('xl/_rels/workbook.xml.rels', '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>')
    // The strings after the header's are one item larger than the reader takes: reading them all first would fail.
    zip.file('xl/sharedStrings.xml', `<sst ${ns}><si><t>编号</t></si><si><t>名称</t></si><si><t>${'x'.repeat(33 * 1024 * 1024)}</t></si></sst>`)
    zip.file('xl/worksheets/sheet1.xml', `<worksheet ${ns}><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>2</v></c></row></sheetData></worksheet>`)
    const file = fileOf(await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }))
    const book = await openXlsx(file)
    const rows = book.rows(book.sheets[0])
    expect((await rows.next()).value).toEqual({ line: 1, cells: ['编号', '名称'] })
    await expect(rows.next()).rejects.toThrow(/too large/)
  }, 60_000)

  it('finds shared strings damaged further on before the first row (they are inflated with the count of the rows)', async () => {
    const rows: CalcCell[][] = [['编号']]
    for (let i = 1; i <= 20000; i++) rows.push([`损坏${i}-${(i * 7919) % 10007}`])
    const bytes = await calcWorkbook('S', rows)
    const file = fileOf(bytes)
    const strings = zipEntries(file).get('xl/sharedstrings.xml')!
    const data = strings.offset + 30 + bytes.readUInt16LE(strings.offset + 26) + bytes.readUInt16LE(strings.offset + 28)
    const at = data + Math.floor((strings.compressedSize * 2) / 3)
    bytes.fill(0xff, at, at + 4096)
    const damaged = fileOf(bytes)
    const book = await openXlsx(damaged)
    await expect(book.rowElements(book.sheets[0])).rejects.toThrow()
    const sound = await openXlsx(file)
    expect(await sound.rowElements(sound.sheets[0])).toBe(20001)
  }, 60_000)

  it('streams a sheet larger than its chunks, shared strings and all', async () => {
    const file = path.join(dir, 'large.xlsx')
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: false, useSharedStrings: true })
    const sheet = writer.addWorksheet('大')
    const rows = 12_000
    for (let i = 1; i <= rows; i++) sheet.addRow([`编号${i}`, `名称${i % 7}`, i / 4]).commit()
    sheet.commit()
    await writer.commit()
    const read = await readAll(file)
    expect(read.length).toBe(rows)
    expect(read[0]).toEqual({ line: 1, cells: ['编号1', '名称1', '0.25'] })
    expect(read[rows - 1]).toEqual({ line: rows, cells: [`编号${rows}`, `名称${rows % 7}`, String(rows / 4)] })
    expect(read.every((r, i) => r.cells[0] === `编号${i + 1}`)).toBe(true)
  }, 60_000)

  it('refuses what is no zip or has no workbook', async () => {
    await expect(openXlsx(fileOf(Buffer.from('PK\u0003\u0004 not really a zip')))).rejects.toThrow()
    const zip = new JSZip()
    zip.file('a.txt', 'x')
    await expect(openXlsx(fileOf(await zip.generateAsync({ type: 'nodebuffer' })))).rejects.toThrow(/no workbook/)
  })
})

describe('string table', () => {
  it('keeps a million distinct strings in their UTF-8 bytes plus four bytes each', () => {
    const table = new StringTable()
    for (let i = 0; i < 1_000_000; i++) table.add(`商品名称${i}`)
    expect(table.size).toBe(1_000_000)
    expect(table.get(0)).toBe('商品名称0')
    expect(table.get(999_999)).toBe('商品名称999999')
    expect(table.get(1_000_000)).toBeUndefined()
    // 12 bytes of Chinese and up to 6 digits each, 4 bytes of offset; the buffers grow by doubling.
    expect(table.footprint).toBeLessThan(2 * 1_000_000 * 18 + 4 * 2 * 1_000_000)
  })
})
