import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import type { Db } from '../../db/dialect.js'
import type { DocumentModel } from '../../engine/document-kind.js'
import type { ImportColumn } from '../../engine/import/columns.js'
import { registerImportKind } from '../../engine/import/kind.js'
import type { ImportRow } from '../../engine/import/units.js'
import type { FieldModel } from '../../../shared/metadata/entity-model.js'
import { parseRegion } from '../../../shared/region/regions.js'
import { invalid } from '../../platform/errors.js'
import { importToolbarActions } from '../../../shared/metadata/import-actions.js'
import type { RequestContext } from '../../platform/request-context.js'
import { LOGISTICS_TABLE, SHIPPED_KINDS, type ShippedKind } from '../../domain/logistics/documents.js'
import { deliver } from '../../domain/logistics/delivery.js'

/** A column of the file that is no field of the sheet (document numbers), named for the cells map. */
const fileField = (name: string, label: string, maxLength: number): FieldModel => ({ name, column: name, type: 'string', label, maxLength })

/** The file's separators of several document numbers in one cell: , ， 、 ; or spaces. */
const codesIn = (text: string | undefined) => [...new Set((text ?? '').split(/[,，、;；\s]+/).map((c) => c.trim()).filter(Boolean))]

const CODES: Record<number, FieldModel> = {
  [SHIPPED_KINDS[0].bizType]: fileField('saleOutSheetCodes', '销售出库单号', 2000),
  [SHIPPED_KINDS[1].bizType]: fileField('retailOutSheetCodes', '零售出库单号', 2000),
}

/**
 * The ids of the documents a row names by number, within the caller's data permission of that kind
 * (one outside it is as unknown): `销售出库单号（X、Y）不存在`.
 */
async function documentIds(services: Services, trx: Db, ctx: RequestContext, kind: ShippedKind, codes: string[]): Promise<string[]> {
  if (!codes.length) return []
  const rows = await trx
    .selectFrom(kind.table)
    .select(['id', 'code'])
    .where('code', 'in', codes)
    .where(await services.store.scope(trx, ctx, services.registry.get(kind.doc)))
    .execute()
  const missing = codes.filter((c) => !rows.some((r) => String(r.code) === c))
  if (missing.length) throw invalid(`${CODES[kind.bizType].label}（${missing.join('、')}）不存在`)
  return codes.map((c) => String(rows.find((r) => String(r.code) === c)!.id))
}

/** The carrier a row names by its code (物流公司编号), or undefined when the cell is empty. */
async function companyId(trx: Db, code: string | undefined): Promise<string | undefined> {
  if (!code) return undefined
  const row = await trx.selectFrom('base_data_logistics_company').select('id').where('code', '=', code).executeTakeFirst()
  if (!row) throw invalid(`物流公司编号（${code}）不存在`)
  return String(row.id)
}

/**
 * The two logistics imports (spec 000 §7 Imports; the spec states no rule for them, so the ancestor's
 * shape): one row is one logistics sheet, naming its sale and retail out sheets by number, and each
 * row stands alone (atomicity 'row': a refused row gets its 第N行 message, the others are written),
 * since the sheets have nothing in common. A sheet is created exactly as by POST /logistics/sheet
 * (same checks, data permission, numbering, op log). The delivery import delivers existing sheets
 * by number as PUT /logistics/sheet/delivery does.
 */
export function registerLogisticsImports(app: FastifyInstance, services: Services, doc: DocumentModel): void {
  const header = (name: string) => doc.header.byName.get(name) as FieldModel
  const company = services.registry.get('logisticsCompany')
  const companyColumn: ImportColumn = {
    field: header('logisticsCompanyId'),
    kind: 'ref',
    header: '物流公司编号',
    required: true,
    target: company,
    key: company.byName.get('code'),
  }
  const text = (name: string, required = Boolean(header(name).requiredMessage)): ImportColumn => ({ field: header(name), kind: 'text', header: header(name).label, required })
  const region = (name: string): ImportColumn => ({ field: header(name), kind: 'region', header: header(name).label, required: true })
  const decimal = (name: string): ImportColumn => ({ field: header(name), kind: 'decimal', header: header(name).label, required: false })
  const permission = doc.header.file.api!.permission

  registerImportKind(app, services, {
    url: '/logistics/sheet/import',
    access: [`${permission}:import`],
    label: '物流单',
    columns: [
      text('logisticsNo'),
      { field: CODES[1], kind: 'text', header: '销售出库单号', required: false },
      { field: CODES[2], kind: 'text', header: '零售出库单号', required: false },
      companyColumn,
      text('senderName'),
      text('senderTelephone'),
      region('senderDistrictId'),
      text('senderAddress'),
      text('receiverName'),
      text('receiverTelephone'),
      region('receiverDistrictId'),
      text('receiverAddress'),
      decimal('totalWeight'),
      decimal('totalVolume'),
      decimal('totalAmount'),
      text('description'),
    ],
    rules: [
      '每行生成一张物流单；“销售出库单号”“零售出库单号”可填写多个，用逗号分隔，两列不能同时为空。',
      '出库单须审核通过（销售/零售参数设置要求发货时，待审核的出库单也可发货），且未关联其他物流单。',
      '每行单独导入：某行有错误时该行不导入并提示原因，其他行照常导入。',
    ],
    atomicity: 'row',
    async write(trx, ctx, rows: ImportRow[]) {
      const cells = rows[0].cells
      const products: { bizId: string }[] = []
      for (const kind of SHIPPED_KINDS)
        for (const id of await documentIds(services, trx, ctx, kind, codesIn(cells.get(CODES[kind.bizType].name)))) products.push({ bizId: id })
      if (!products.length) throw invalid('“销售出库单号、零售出库单号”不能同时为空')
      const body: Record<string, unknown> = { products, logisticsCompanyId: await companyId(trx, cells.get('logisticsCompanyId')) }
      for (const name of ['logisticsNo', 'senderName', 'senderTelephone', 'senderAddress', 'receiverName', 'receiverTelephone', 'receiverAddress', 'totalWeight', 'totalVolume', 'totalAmount', 'description'])
        body[name] = cells.get(name) || undefined
      for (const [name, label] of [['senderDistrictId', '寄件人地区'], ['receiverDistrictId', '收件人地区']] as const) {
        const place = cells.get(name)
        if (!place) continue
        const code = parseRegion(place)
        if (!code) throw invalid(`${label}（${place}）不存在`)
        body[name] = code
      }
      await services.documents.create(trx, ctx, doc, body)
      return 'create'
    },
  })

  registerImportKind(app, services, {
    url: '/logistics/sheet/import/delivery',
    // The key the list's 批量Excel发货 button declares (logistics-sheet.json toolbar), so button and call agree.
    access: [importToolbarActions(doc.header.file).find((a) => a.key === 'import/delivery')?.permission ?? `${permission}:import-delivery`],
    label: '物流单发货信息',
    columns: [
      { field: header('code'), kind: 'text', header: '单据号', required: true },
      { ...companyColumn, required: false },
      text('logisticsNo', true),
      decimal('totalAmount'),
    ],
    rules: [
      '按“单据号”找到待发货的物流单并发货：填写物流单号，物流公司编号和物流费不填时保留物流单上的值。',
      '每行单独导入：某行有错误时该行不导入并提示原因，其他行照常导入。',
    ],
    atomicity: 'row',
    async write(trx, ctx, rows: ImportRow[]) {
      const cells = rows[0].cells
      const code = cells.get('code')
      const sheet = code
        ? await trx
            .selectFrom(LOGISTICS_TABLE)
            .select('id')
            .where('code', '=', code)
            .where(await services.store.scope(trx, ctx, doc.header))
            .executeTakeFirst()
        : undefined
      if (!sheet) throw invalid(`单据号（${code ?? ''}）不存在`)
      await deliver(services, trx, ctx, doc, {
        id: String(sheet.id),
        logisticsCompanyId: await companyId(trx, cells.get('logisticsCompanyId')),
        logisticsNo: cells.get('logisticsNo'),
        totalAmount: cells.get('totalAmount'),
      })
      return 'modify'
    },
  })
}
