// @vitest-environment node
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { BORDER_STYLES, cellBorders, toArgb, workbookToXlsx, xlsxToWorkbook } from '../../src/server/domain/smart-work/spreadsheet-xlsx.js'
import { checkWorkbook, type BorderInfo } from '../../src/server/domain/smart-work/spreadsheet-content.js'
import { toEditorSheets, toStoredSheets } from '../../src/client/features/smart-work/online-excel/workbook-content.js'

const sides = (map: ReturnType<typeof cellBorders>, r: number, c: number) => Object.keys(map.get(`${r}_${c}`) ?? {}).sort()

describe('spreadsheet xlsx mapping', () => {
  it('maps colours as FortuneSheet writes them', () => {
    expect(toArgb('#ff0000')).toBe('FFFF0000')
    expect(toArgb('#0f0')).toBe('FF00FF00')
    expect(toArgb('rgb(0, 0, 255)')).toBe('FF0000FF')
    expect(toArgb('red')).toBeUndefined()
  })

  it('draws each range border type on the right sides of a 2 × 2 range', () => {
    const of = (borderType: string) =>
      cellBorders([{ rangeType: 'range', borderType, style: 1, color: '#000', range: [{ row: [0, 1], column: [0, 1] }] }] as BorderInfo[], 10, 10)
    expect(sides(of('border-all'), 0, 0)).toEqual(['bottom', 'left', 'right', 'top'])
    expect(sides(of('border-outside'), 0, 0)).toEqual(['left', 'top'])
    expect(sides(of('border-outside'), 1, 1)).toEqual(['bottom', 'right'])
    expect(sides(of('border-inside'), 0, 0)).toEqual(['bottom', 'right'])
    expect(sides(of('border-inside'), 1, 1)).toEqual([])
    expect(sides(of('border-horizontal'), 0, 1)).toEqual(['bottom'])
    expect(sides(of('border-vertical'), 1, 0)).toEqual(['right'])
    expect(sides(of('border-top'), 0, 1)).toEqual(['top'])
    expect(sides(of('border-top'), 1, 1)).toEqual([])
    const cleared = cellBorders(
      [
        { rangeType: 'range', borderType: 'border-all', style: 1, range: [{ row: [0, 0], column: [0, 0] }] },
        { rangeType: 'range', borderType: 'border-none', range: [{ row: [0, 0], column: [0, 0] }] },
      ] as BorderInfo[],
      10,
      10,
    )
    expect(sides(cleared, 0, 0)).toEqual([])
  })

  it('exports the 14 border kinds (0 = none, 1-13 = the 13 Excel styles) and imports them back', async () => {
    expect(BORDER_STYLES).toHaveLength(14)
    const celldata = BORDER_STYLES.map((_, i) => ({ r: i, c: 0, v: { v: i, ct: { fa: 'General', t: 'n' } } }))
    const borderInfo = BORDER_STYLES.map((_, i) => ({ rangeType: 'cell' as const, value: { row_index: i, col_index: 0, b: { style: i, color: '#ff0000' } } }))
    const book = checkWorkbook({ sheets: [{ name: 'B', celldata, config: { borderInfo } }] }, 'b')
    const bytes = await workbookToXlsx(book)
    const read = new ExcelJS.Workbook()
    await read.xlsx.load(bytes as unknown as ArrayBuffer)
    const ws = read.worksheets[0]
    expect(ws.getCell(1, 1).border?.bottom).toBeUndefined()
    for (let i = 1; i < 14; i++) expect(ws.getCell(i + 1, 1).border.bottom, `kind ${i}`).toEqual({ style: BORDER_STYLES[i], color: { argb: 'FFFF0000' } })
    const back = await xlsxToWorkbook(bytes, 'b')
    const styles = (back.sheets[0].config!.borderInfo ?? []).map((b) => [b.value!.row_index, Number(b.value!.b!.style)])
    expect(styles).toEqual(Array.from({ length: 13 }, (_, k) => [k + 1, k + 1]))
  })

  it('default font size 10; row height x 1.2 and column width / 8 out, the inverse in', async () => {
    const book = checkWorkbook({ sheets: [{ name: 'S', celldata: [{ r: 0, c: 0, v: 'a' }], config: { rowlen: { '0': 25 }, columnlen: { '0': 160 } } }] }, 's')
    const read = new ExcelJS.Workbook()
    const bytes = await workbookToXlsx(book)
    await read.xlsx.load(bytes as unknown as ArrayBuffer)
    const ws = read.worksheets[0]
    expect(ws.getCell('A1').font.size).toBe(10)
    expect(ws.getRow(1).height).toBeCloseTo(30)
    expect(ws.getColumn(1).width).toBe(20)
    const back = await xlsxToWorkbook(bytes, 's')
    expect(back.sheets[0].config).toMatchObject({ rowlen: { '0': 25 }, columnlen: { '0': 160 } })
  })

  it('stores FortuneSheet runtime sheets as sparse celldata and reopens formulas with a calc chain', () => {
    const stored = toStoredSheets([{ name: 'S', data: [[{ v: 1 }, null], [null, { v: 3, f: '=A1+2' }]], luckysheet_select_save: [{}] } as never])
    // Numbers without an alignment of their own are stored right-aligned, as the editor shows them.
    expect(stored).toEqual([{ name: 'S', order: 0, celldata: [{ r: 0, c: 0, v: { v: 1, ht: 2 } }, { r: 1, c: 1, v: { v: 3, f: '=A1+2', ht: 2 } }] }])
    const opened = toEditorSheets(stored)
    expect(opened[0]).toMatchObject({ id: 'sheet_1', calcChain: [{ r: 1, c: 1, id: 'sheet_1' }] })
  })

  it('stores a typed number right-aligned even before the editor has aligned it; an aligned number or a text keeps its own', () => {
    const [sheet] = toStoredSheets([
      { name: 'S', data: [[{ v: 42, m: '42', ct: { fa: 'General', t: 'n' } }, { v: 7, ct: { fa: 'General', t: 'n' }, ht: 1 }, { v: 'note', ct: { fa: 'General', t: 'g' } }]] } as never,
    ])
    const v = (c: number) => (sheet.celldata as { c: number; v: Record<string, unknown> }[])[c].v
    expect([v(0).ht, v(1).ht, v(2).ht]).toEqual([2, 1, undefined])
  })

  it('opens numbers right-aligned unless aligned, and names a font given by its Luckysheet index', () => {
    const [sheet] = toEditorSheets([
      {
        name: 'S',
        celldata: [
          { r: 0, c: 0, v: { v: 1, ct: { fa: 'General', t: 'n' } } },
          { r: 0, c: 1, v: { v: 2, ct: { fa: 'General', t: 'n' }, ht: 1 } },
          { r: 0, c: 2, v: { v: '文本', ct: { fa: 'General', t: 'g' }, ff: 5 } },
          { r: 0, c: 3, v: { v: 3 } },
        ],
      },
    ])
    const v = (c: number) => (sheet.celldata as { c: number; v: Record<string, unknown> }[])[c].v
    expect(v(0).ht).toBe(2)
    expect(v(1).ht).toBe(1)
    expect(v(2)).toMatchObject({ ff: '宋体' })
    expect(v(2).ht).toBeUndefined()
    expect(v(3).ht).toBe(2)
  })
})
