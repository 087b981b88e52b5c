import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { EntityRegistry } from '../../src/server/engine/entity-registry.js'
import {
  cellText,
  normaliseDate,
  normaliseDateTime,
  parseBoolean,
  parseEnum,
  parseRegion,
} from '../../src/server/engine/import/cells.js'
import { importColumns } from '../../src/server/engine/import/columns.js'
import { exportCell, regionText } from '../../src/server/engine/export-cells.js'
import { readImportFile, templateWorkbook } from '../../src/server/engine/import/workbook.js'
import { hasOperation, operationKeys } from '../../src/shared/metadata/operation-keys.js'

const registry = new EntityRegistry()
const enums = registry.enums
const supplier = registry.get('supplier')
const field = (entity: string, name: string) => registry.get(entity).byName.get(name)!

describe('cell text', () => {
  it('reads plain, rich-text, formula and hyperlink cells as trimmed text', () => {
    expect(cellText('  GYS-1 ')).toBe('GYS-1')
    expect(cellText(null)).toBe('')
    expect(cellText(12)).toBe('12')
    expect(cellText(0.1 + 0.2)).toBe('0.3')
    expect(cellText({ richText: [{ text: '杭州' }, { text: '供应商 ' }] })).toBe('杭州供应商')
    expect(cellText({ formula: 'A1&B1', result: '合计' })).toBe('合计')
    expect(cellText({ text: 'mail@example.com', hyperlink: 'mailto:mail@example.com' })).toBe('mail@example.com')
    expect(cellText({ error: '#N/A' })).toBe('')
    expect(cellText(true)).toBe('是')
  })

  it('reads a percent-formatted number as Excel shows it, and dates as the wire formats', () => {
    expect(cellText(0.17, '0%')).toBe('17%')
    expect(cellText(new Date(Date.UTC(2024, 2, 5)))).toBe('2024-03-05')
    expect(cellText(new Date(Date.UTC(2024, 2, 5, 8, 30, 0)))).toBe('2024-03-05 08:30:00')
  })

  it('normalises the usual date spellings', () => {
    expect(normaliseDate('2024/3/5')).toBe('2024-03-05')
    expect(normaliseDate('2024年3月5日')).toBe('2024-03-05')
    expect(normaliseDate('5.3.2024')).toBeUndefined()
    expect(normaliseDateTime('2024/3/5 8:05')).toBe('2024-03-05 08:05:00')
    expect(normaliseDateTime('2024-03-05')).toBe('2024-03-05 00:00:00')
  })
})

describe('enumerations, booleans and regions', () => {
  it('takes an enumeration by label, code or key', () => {
    expect(parseEnum('货到付款', 'SETTLE_TYPE', enums)).toBe(2)
    expect(parseEnum('1', 'SETTLE_TYPE', enums)).toBe(1)
    expect(parseEnum('cash_on_delivery', 'SETTLE_TYPE', enums)).toBe(2)
    expect(parseEnum('17%', 'TAX_RATE', enums)).toBe(17)
    expect(parseEnum('免税', 'TAX_RATE', enums)).toBe(-1)
    expect(parseEnum('月结', 'SETTLE_TYPE', enums)).toBeUndefined()
  })

  it('takes 是/否 and the field’s own labels (启用/停用) for booleans', () => {
    const available = field('supplier', 'available')
    expect(parseBoolean('启用', available, enums)).toBe(true)
    expect(parseBoolean('停用', available, enums)).toBe(false)
    expect(parseBoolean('是', available, enums)).toBe(true)
    expect(parseBoolean('否', field('address', 'isDefault'), enums)).toBe(false)
    expect(parseBoolean('TRUE', field('address', 'isDefault'), enums)).toBe(true)
    expect(parseBoolean('可能', available, enums)).toBeUndefined()
  })

  it('resolves 省/市/区 text to the last code and writes it back', () => {
    expect(parseRegion('广东省/深圳市/南山区')).toBe('440305')
    expect(parseRegion('广东省 / 深圳市 / 南山区')).toBe('440305')
    expect(parseRegion('广东／深圳／南山')).toBe('440305')
    expect(parseRegion('浙江省/杭州市')).toBe('3301')
    expect(parseRegion('440305')).toBe('440305')
    expect(parseRegion('330100')).toBe('3301')
    expect(parseRegion('广东省/杭州市')).toBeUndefined()
    expect(parseRegion('999999')).toBeUndefined()
    expect(regionText('440305')).toBe('广东省/深圳市/南山区')
    expect(regionText(null)).toBe('')
  })
})

describe('import columns', () => {
  it('are the export columns a client may write; required ones have no default and are not derived', () => {
    const columns = importColumns(registry, supplier)
    expect(columns.filter((c) => c.required).map((c) => c.header)).toEqual(['编号', '名称', '结账方式'])
    expect(columns.find((c) => c.field.name === 'cityId')?.kind).toBe('region')
    const poly = importColumns(registry, registry.get('productPoly'))
    expect(poly.map((c) => c.header)).toEqual(['货号', '名称', '简称', '类目编号', '品牌编号', '多销售属性', '进项税率（%）', '销项税率（%）', '状态'])
    expect(importColumns(registry, registry.get('productBrand')).map((c) => c.field.name)).not.toContain('logo')
  })

  it('export cells read like the import takes them', () => {
    expect(exportCell(field('supplier', 'settleType'), { settleType: 2 }, enums)).toBe('货到付款')
    expect(exportCell(field('supplier', 'available'), { available: false }, enums)).toBe('停用')
    expect(exportCell(field('address', 'isDefault'), { isDefault: true }, enums)).toBe('是')
    expect(exportCell(field('supplier', 'cityId'), { cityId: '440305' }, enums)).toBe('广东省/深圳市/南山区')
    expect(exportCell(field('product', 'categoryId'), { categoryId: 'x', categoryName: '上衣' }, enums)).toBe('上衣')
  })

  it('import is an operation where the list toolbar has it, with the key {permission}:import', () => {
    expect(hasOperation(supplier, 'import')).toBe(true)
    expect(operationKeys(supplier, 'import')).toEqual(['base-data:supplier:import'])
    expect(hasOperation(registry.get('role'), 'import')).toBe(false)
  })
})

describe('workbook', () => {
  it('reads back its own template filled in, matched by header, skipping blank rows', async () => {
    const columns = importColumns(registry, supplier)
    const template = await templateWorkbook(supplier, columns, enums, 2000)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(template as unknown as ArrayBuffer)
    const sheet = book.worksheets[0]
    sheet.getRow(2).values = ['GYS-1', '供应商']
    sheet.getCell('N2').value = '款到发货'
    sheet.getRow(4).values = ['GYS-2', '供应商二']
    const rows = await readImportFile(Buffer.from(await book.xlsx.writeBuffer()), columns, 2000)
    expect(rows.map((r) => [r.line, r.cells.get('code'), r.cells.get('settleType')])).toEqual([
      [2, 'GYS-1', '款到发货'],
      [4, 'GYS-2', ''],
    ])
  })
})

describe('impossible dates', () => {
  it('are no dates', () => {
    expect(normaliseDate('2024-02-30')).toBeUndefined()
    expect(normaliseDate('2024-13-01')).toBeUndefined()
    expect(normaliseDate('2024-02-29')).toBe('2024-02-29')
    expect(normaliseDateTime('2024-02-29 24:00')).toBeUndefined()
  })
})
