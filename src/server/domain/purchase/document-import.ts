import Decimal from 'decimal.js'
import type { Db } from '../../db/dialect.js'
import type { EntityModel, FieldModel } from '../../../shared/metadata/entity-model.js'
import { snakeCase } from '../../../shared/metadata/entity-model.js'
import { checkField, isBlank } from '../../../shared/metadata/validate-record.js'
import { LINES_IN } from '../../../shared/metadata/document-model.js'
import { BizError } from '../../platform/errors.js'
import type { RequestContext } from '../../platform/request-context.js'
import { today } from '../../platform/clock.js'
import { documentModel } from '../../engine/document-routes.js'
import type { ColumnKind, ImportColumn } from '../../engine/import/columns.js'
import { normaliseDate } from '../../engine/import/cells.js'
import type { ImportRow } from '../../engine/import/units.js'
import { rowError, RowProblems } from '../../engine/import/units.js'
import type { Wire } from '../../engine/record-codec.js'
import type { EntityStore } from '../../engine/entity-store.js'
import type { Services } from '../../engine/services.js'

/**
 * The import of goods documents (purchase orders, receive sheets; 000 §5 Import rules): one row is one
 * line; rows with the same header values (warehouse, supplier, buyer and the document's dates) are one
 * document, written through the document engine exactly as the screen's create (numbering, validation,
 * hooks, reservations, timeline, op log), and a group is all or nothing. Cells name master data by
 * code. Messages name the Excel row (`第N行：` is added by the import engine from the row given here).
 */

/** A spreadsheet column of a document import: its cell key, header, kind and the field whose rules it shows. */
export function importColumn(
  name: string,
  header: string,
  kind: ColumnKind,
  required: boolean,
  like?: FieldModel,
  target?: EntityModel,
): ImportColumn {
  const type = kind === 'ref' || kind === 'text' || kind === 'region' ? 'string' : kind
  // A column is a cell key of its own (a header and a line both have 备注), shown with the rules of `like`.
  const field: FieldModel = { ...(like ?? {}), name, column: snakeCase(name), type, label: header } as FieldModel
  const column: ImportColumn = { field, kind, header, required }
  if (target) {
    column.target = target
    column.key = target.byName.get('code')
  }
  return column
}

/** The words of the 是否赠品 column. */
const YES = '是'
const NO = '否'

/** A header value a group is keyed by: dates compare as dates (2026/3/5 = 2026-03-05). */
export const dateKey = (text: string | undefined) => (text ? normaliseDate(text) ?? text : '')

/**
 * The ids of the caller's records of `entity` whose code is one of `codes` (one query): a code outside
 * the caller's data permission is as missing as an unknown one.
 */
export async function idsByCode(store: EntityStore, trx: Db, ctx: RequestContext, entity: EntityModel, codes: Iterable<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const code = entity.byName.get('code')!
  const rows = await store.visibleRows(trx, ctx, entity, [...codes].filter(Boolean), code.column)
  for (const r of rows) out.set(String(r.key), r.id)
  return out
}

/** What differs between the goods documents an import creates. */
export interface GoodsImportSpec {
  /** The document created per group. */
  document: string
  /** Header date columns (cell key = header field name) besides warehouse, supplier and buyer, in key order. */
  dates: { field: string; header: string; required: boolean; blankIsToday?: boolean; blank?: string }[]
  /** Header of the quantity column (采购数量, 收货数量). */
  quantityHeader: string
}

/** The cells of one row after its checks: ids, quantities and prices as the document's wire values. */
interface CheckedRow {
  row: ImportRow
  header: Wire
  line: Wire
}

export function goodsDocumentImport(services: Services, spec: GoodsImportSpec) {
  const { registry } = services
  const doc = documentModel(services, registry.get(spec.document))
  const { header, lines, section } = doc
  const storeCenter = registry.get('storeCenter')
  const supplier = registry.get('supplier')
  const user = registry.get('user')
  const product = registry.get('product')
  const totals = section.totals!
  const numField = lines.byName.get(totals.num)!
  const priceField = lines.byName.get(totals.price!)!
  const lineNote = lines.byName.get('description')!
  const headerNote = header.byName.get('description')!

  const columns: ImportColumn[] = [
    importColumn('scCode', '仓库编号', 'ref', true, undefined, storeCenter),
    importColumn('supplierCode', '供应商编号', 'ref', true, undefined, supplier),
    importColumn('purchaserCode', '采购员编号', 'ref', false, undefined, user),
    ...spec.dates.map((d) => importColumn(d.field, d.header, 'date', d.required)),
    importColumn('productCode', '商品编号', 'ref', true, undefined, product),
    importColumn('taxPrice', priceField.label, 'decimal', false, { ...priceField, min: undefined, minMessage: undefined }),
    importColumn('orderNum', spec.quantityHeader, 'integer', true, { ...numField, label: spec.quantityHeader }),
    importColumn('gift', '是否赠品', 'boolean', true),
    importColumn('detailDescription', '单据明细备注', 'text', false, lineNote),
    importColumn('description', '单据备注', 'text', false, headerNote),
  ]

  const dateRule = spec.dates
    .map((d) => `${d.header}${d.blankIsToday ? '空白时为导入当天' : d.required ? '必须填写' : d.blank ?? '可不填'}`)
    .join('，')
  const rules = [
    `按“仓库编号、供应商编号、采购员编号、${spec.dates.map((d) => d.header).join('、')}”分组：相同的行生成一张${doc.subject}，每行是其中的一行商品；${dateRule}。`,
    '“是否赠品”填写“是”或“否”；赠品的采购价为0（可不填），非赠品的采购价必须大于0；“单据备注”取每组第一行的。',
    `每组作为一个整体导入：组内任何一行有误时该组不生成${doc.subject}，其他组照常导入；出错的行以“第N行”列出（N为Excel中的行号）。`,
    `导入的${doc.subject}为“待审核”，与在页面上新增的一样编号、校验并记录操作日志。`,
  ]

  const groupKey = (row: ImportRow) =>
    [row.cells.get('scCode') ?? '', row.cells.get('supplierCode') ?? '', row.cells.get('purchaserCode') ?? '', ...spec.dates.map((d) => dateKey(row.cells.get(d.field)))].join('\u0001')

  const cell = (row: ImportRow, name: string) => (row.cells.get(name) ?? '').trim()

  /** A non-gift line's price: greater than 0, at most the field's places (the sign is told before the places). */
  const linePrice: FieldModel = { ...priceField, min: undefined, minExclusive: 0, minMessage: `${priceField.label}必须大于0` }

  /** Checks a row's own cells (before anything is looked up), reporting each problem of each cell. */
  function checkRow(row: ImportRow, problem: (message: string) => void): CheckedRow {
    const blank = new Set<string>()
    for (const c of columns)
      if (c.required && !cell(row, c.field.name)) {
        problem(`${c.header}不能为空`)
        blank.add(c.field.name)
      }
    const h: Wire = {}
    for (const d of spec.dates) {
      const text = cell(row, d.field)
      if (!text) {
        if (d.blankIsToday) h[d.field] = today()
        else if (d.required) {
          if (!blank.has(d.field)) problem(`${d.header}不能为空`)
        } else h[d.field] = null
        continue
      }
      const date = normaliseDate(text)
      if (!date) problem(`${d.header}格式不正确，请填写日期，如：2026-01-31`)
      h[d.field] = date ?? null
    }
    const gift = cell(row, 'gift')
    if (gift && gift !== YES && gift !== NO) problem('是否赠品只能填写“是”或“否”')
    const line: Wire = { orderNum: cell(row, 'orderNum') }
    if (line.orderNum) {
      const numProblem = checkField({ ...numField, label: spec.quantityHeader, minMessage: `${spec.quantityHeader}必须大于0`, integerMessage: `${spec.quantityHeader}必须为整数` }, line.orderNum, registry.enums, 'create')
      if (numProblem) problem(numProblem)
      else line.orderNum = Number(line.orderNum)
    }
    if (gift === YES) line.taxPrice = '0'
    else if (gift === NO) {
      const price = cell(row, 'taxPrice')
      const priceProblem = price ? checkField(linePrice, price, registry.enums, 'create') : `${priceField.label}不能为空`
      if (priceProblem) problem(priceProblem)
      else line.taxPrice = new Decimal(price).toFixed(priceField.scale ?? 2)
    }
    const note = cell(row, 'detailDescription')
    if (note) {
      const noteProblem = checkField({ ...lineNote, label: '单据明细备注' }, note, registry.enums, 'create')
      if (noteProblem) problem(noteProblem)
      line.description = note
    }
    return { row, header: h, line }
  }

  /** Code cells to ids (one query per kind of master data for the whole group), each unknown code a problem of its row. */
  async function resolve(trx: Db, ctx: RequestContext, checked: CheckedRow[], problems: RowProblems) {
    const codes = (name: string) => checked.map((c) => cell(c.row, name))
    const { store } = services
    const [scs, suppliers, users, products] = await Promise.all([
      idsByCode(store, trx, ctx, storeCenter, codes('scCode')),
      idsByCode(store, trx, ctx, supplier, codes('supplierCode')),
      idsByCode(store, trx, ctx, user, codes('purchaserCode')),
      idsByCode(store, trx, ctx, product, codes('productCode')),
    ])
    for (const c of checked) {
      const lookup = (name: string, header: string, found: Map<string, string>) => {
        const code = cell(c.row, name)
        if (!code) return null
        const id = found.get(code)
        if (!id) problems.add(c.row.line, `${header}“${code}”不存在`)
        return id ?? null
      }
      c.header.scId = lookup('scCode', '仓库编号', scs)
      c.header.supplierId = lookup('supplierCode', '供应商编号', suppliers)
      c.header.purchaserId = lookup('purchaserCode', '采购员编号', users)
      c.line.productId = lookup('productCode', '商品编号', products)
    }
  }

  /**
   * The engine numbers the lines of a document from 1 (`第2行商品…`); in an import the user looks for the
   * Excel row, so such a message is moved to that row.
   */
  function toRowError(error: unknown, rows: ImportRow[]): unknown {
    if (!(error instanceof BizError) || 'line' in error) return error
    const m = /^第(\d+)行(?:商品)?(.*)$/.exec(error.message)
    const at = m && rows[Number(m[1]) - 1]
    if (!at || !m) return rowError(rows[0].line, error.message)
    return rowError(at.line, `商品${m[2]}`)
  }

  /** One group: checks every row (all of their problems refuse it), then creates its document through the document engine. */
  async function write(trx: Db, ctx: RequestContext, rows: ImportRow[]): Promise<'create'> {
    // Every row is checked and looked up before the group is refused, so each row in error is listed.
    const problems = new RowProblems()
    const checked = problems.each(rows, (r) => r.line, checkRow).filter((c): c is CheckedRow => c !== undefined)
    await resolve(trx, ctx, checked, problems)
    problems.raise()
    const first = checked[0]
    const body: Wire = {
      ...first.header,
      description: cell(first.row, 'description') || null,
      [LINES_IN]: checked.map((c) => c.line),
    }
    if (isBlank(body.purchaserId)) delete body.purchaserId
    try {
      await services.documents.create(trx, ctx, doc, body)
    } catch (error) {
      throw toRowError(error, rows)
    }
    return 'create'
  }

  return { doc, columns, rules, groupKey, write }
}
