import type ExcelJS from 'exceljs'
import { loadExcelJs } from '../../platform/heavy-modules.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { EnumCatalog } from '../../../shared/metadata/enum-catalog.js'
import type { ImportColumn } from './columns.js'
import { booleanLabels, REGION_SEPARATOR } from '../export-cells.js'
import { HELP_SHEET } from './file.js'

// Reading uploads lives in import-file.ts; these stay importable from here for the import kinds.
export {
  DEFAULT_MAX_ROWS,
  HELP_SHEET,
  IMPORT_EXTENSIONS,
  IMPORT_MAX_BYTES,
  IMPORT_SIZE_MESSAGE,
  IMPORT_TYPE_MESSAGE,
  readImportFile,
} from './file.js'

export const REQUIRED_MARK = '*'

/** Worksheet names may not hold []:*?/\ and are at most 31 characters. */
const sheetName = (label: string) => label.replace(/[[\]:*?/\\]/g, '').slice(0, 31) || 'Sheet1'

interface RangeValidations {
  dataValidations: { add(range: string, validation: ExcelJS.DataValidation): void }
}

export const headerText = (c: ImportColumn) => (c.required ? `${REQUIRED_MARK}${c.header}` : c.header)

/** What a column takes, for the 说明 sheet. */
function columnRule(c: ImportColumn, enums: EnumCatalog, entity?: EntityModel): string {
  const f = c.field
  const parts: string[] = []
  switch (c.kind) {
    case 'enum':
      parts.push(`填写以下之一：${enums.items(f.enum as string).map((i) => i['zh-CN']).join('、')}`)
      break
    case 'boolean':
      parts.push(`填写${booleanLabels(f, enums).join('或')}`)
      break
    case 'ref':
      parts.push(c.target ? `填写${c.target.label}的${c.key?.label}` : `填写${f.label}ID`)
      if (entity && c.target === entity) parts.push('可引用本文件中前面的行')
      break
    case 'region':
      parts.push(`按“省${REGION_SEPARATOR}市${REGION_SEPARATOR}区”填写，如：浙江省${REGION_SEPARATOR}杭州市${REGION_SEPARATOR}西湖区`)
      break
    case 'date':
      parts.push('日期，格式：YYYY-MM-DD')
      break
    case 'datetime':
      parts.push('日期时间，格式：YYYY-MM-DD HH:mm:ss')
      break
    case 'integer':
      parts.push('整数')
      break
    case 'decimal':
      parts.push(f.scale !== undefined ? `数字，最多${f.scale}位小数` : '数字')
      break
    default:
      if (f.pattern === 'code') parts.push('字母、数字或“-_.”')
  }
  if (f.maxLength && (c.kind === 'text' || c.kind === 'ref')) parts.push(`最多${f.maxLength}个字符`)
  if (f.min !== undefined) parts.push(`不能小于${f.min}`)
  if (f.minExclusive !== undefined) parts.push(`必须大于${f.minExclusive}`)
  if (f.max !== undefined) parts.push(`不能大于${f.max}`)
  if (f.default !== undefined && f.default !== null) {
    const shown =
      c.kind === 'boolean' ? booleanLabels(f, enums)[f.default === true ? 0 : 1]
      : f.enum ? enums.label(f.enum, f.default) ?? String(f.default)
      : String(f.default)
    parts.push(`空白时默认为“${shown}”`)
  }
  if (f.derive) parts.push(`空白时由${entity?.byName.get(f.derive.from)?.label ?? f.derive.from}生成`)
  if (f.unique && f.name !== 'code') parts.push('不能重复')
  if (f.immutable) parts.push('仅新增时使用，修改已有数据时忽略')
  return parts.join('；')
}

/** What a template describes: its sheet's name, columns, and the rules of the 说明 sheet after the first one. */
export interface TemplateSpec {
  label: string
  columns: ImportColumn[]
  /** Rules after “1. 第一行为列名…最多N行”, numbered from 2 on (the file-type rule follows them). */
  rules: string[]
  /** The entity the rows create, when there is one (a reference to it may name an earlier row). */
  entity?: EntityModel
}

/**
 * The import template: the first sheet has the column headers (required ones marked *), text format
 * for text columns (so 001 stays 001) and drop-downs for enumerations and yes/no; the sheet 说明 lists
 * what each column takes and the rules of the import.
 */
export async function importTemplate(spec: TemplateSpec, enums: EnumCatalog, maxRows: number): Promise<Buffer> {
  const { columns, entity } = spec
  const book = new (await loadExcelJs()).Workbook()
  const sheet = book.addWorksheet(sheetName(spec.label))
  sheet.columns = columns.map((c) => ({ header: headerText(c), key: c.field.name, width: Math.max(14, [...headerText(c)].length * 2 + 4) }))
  const header = sheet.getRow(1)
  header.font = { bold: true }
  columns.forEach((c, i) => {
    const cell = header.getCell(i + 1)
    if (c.required) cell.font = { bold: true, color: { argb: 'FFCC0000' } }
    cell.note = columnRule(c, enums, entity)
    const column = sheet.getColumn(i + 1)
    if (c.kind === 'text' || c.kind === 'ref' || c.kind === 'region') column.numFmt = '@'
  })
  sheet.views = [{ state: 'frozen', ySplit: 1 }]
  const lastRow = maxRows + 1
  columns.forEach((c, i) => {
    const choices =
      c.kind === 'enum' ? enums.items(c.field.enum as string).map((it) => it['zh-CN'])
      : c.kind === 'boolean' ? booleanLabels(c.field, enums)
      : undefined
    const formula = choices && `"${choices.join(',')}"`
    if (!formula || formula.length > 255 || choices!.some((x) => x.includes(','))) return
    const letter = sheet.getColumn(i + 1).letter
    // A range address is supported by ExcelJS's writer but missing from its types.
    ;(sheet as unknown as RangeValidations).dataValidations.add(`${letter}2:${letter}${lastRow}`, {
      type: 'list',
      allowBlank: true,
      formulae: [formula],
      showErrorMessage: true,
      errorTitle: '取值不正确',
      error: `请选择：${choices!.join('、')}`,
    })
  })

  const help = book.addWorksheet(HELP_SHEET)
  help.columns = [
    { header: '列名', key: 'header', width: 24 },
    { header: '必填', key: 'required', width: 8 },
    { header: '填写说明', key: 'rule', width: 80 },
  ]
  help.getRow(1).font = { bold: true }
  for (const c of columns) help.addRow({ header: c.header, required: c.required ? '是' : '否', rule: columnRule(c, enums, entity) })
  help.addRow({})
  const rules = [
    `导入规则`,
    `1. 第一行为列名，请勿修改；带“${REQUIRED_MARK}”的列新增时必须填写；从第二行起每行一条数据，最多${maxRows}行。`,
    ...[...spec.rules, '仅支持xls、xlsx格式的文件。'].map((r, i) => `${i + 2}. ${r}`),
  ]
  for (const r of rules) help.addRow({ header: r })
  help.getRow(columns.length + 3).font = { bold: true }
  return Buffer.from(await book.xlsx.writeBuffer())
}

/** The template of an entity's own import (matched by code, all or nothing). */
export async function templateWorkbook(entity: EntityModel, columns: ImportColumn[], enums: EnumCatalog, maxRows: number): Promise<Buffer> {
  const code = columns.find((c) => c.field.name === 'code')
  const rules = [
    code
      ? `按“${code.header}”匹配：${code.header}已存在时修改该数据（修改时空白单元格表示清空，带默认值的列空白时保留原值），否则新增。`
      : '每行新增一条数据。',
    '每行单独导入：有误的行不导入，并在导入结果中列出（第N行指Excel中的行号），其余各行照常导入；改正出错的行后可以只重新导入这些行。',
  ]
  return importTemplate({ label: entity.label, columns, rules, entity }, enums, maxRows)
}
