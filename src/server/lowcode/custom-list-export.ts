import { loadExcelJs } from '../platform/heavy-modules.js'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import type { LoadedList } from './custom-list-config.js'

/**
 * The export of a custom list: one column per list field, in list order. The sequence, radio and
 * checkbox columns are the browser's and never reach here; a field whose column no longer exists
 * was dropped when the list loaded. Enumerations and the 启用/停用 tag are written as their labels.
 */
export async function exportList(loaded: LoadedList, rows: Record<string, unknown>[], enums: EnumCatalog): Promise<Buffer> {
  const book = new (await loadExcelJs()).Workbook()
  const sheet = book.addWorksheet(String(loaded.list.name ?? 'Sheet1').slice(0, 31) || 'Sheet1')
  sheet.columns = loaded.fields.map((f) => ({ header: f.name || f.column.name, key: f.column.key, width: Math.max(10, Math.round(f.width / 8)) }))
  for (const row of rows) {
    const out: Record<string, unknown> = {}
    for (const f of loaded.fields) {
      const v = row[f.column.key]
      if (v === null || v === undefined) out[f.column.key] = null
      else if (f.hasAvailableTag) out[f.column.key] = v === true ? '启用' : v === false ? '停用' : v
      else if (f.fixEnum && f.frontType) out[f.column.key] = enums.label(f.frontType, v) ?? v
      else out[f.column.key] = typeof v === 'boolean' ? (v ? '是' : '否') : v
    }
    sheet.addRow(out)
  }
  return Buffer.from(await book.xlsx.writeBuffer())
}
