import type { EntityFile, Field } from '../generated/entity.js'

export type DocumentSection = NonNullable<EntityFile['document']>

/** Name of a document's line entity: `purchaseOrder` → `purchaseOrderDetail`. */
export const linesEntityName = (documentName: string) => `${documentName}Detail`

/** The wire property carrying the lines: requests send `products` (as the ancestor's VOs), answers carry `details`. */
export const LINES_IN = 'products'
export const LINES_OUT = 'details'

/** Lines one document may carry unless its file says otherwise (`document.maxLines`; the meta-schema's default). */
export const DEFAULT_MAX_LINES = 1000

export const maxLinesOf = (doc: DocumentSection): number => doc.maxLines ?? DEFAULT_MAX_LINES

/** What one line is in messages and on the page (`document.lines.subject`): 商品 unless the file says (项目, 业务单据…). */
export const lineSubjectOf = (doc: DocumentSection): string => doc.lines.subject ?? '商品'

/** Whether lines are products (no `lines.pick`): product columns, product picker and quick search. */
export const hasProductLines = (doc: DocumentSection): boolean => !doc.lines.pick

/** Document statuses shared by every document kind (each kind's enumeration may add its own). */
export const DocumentStatus = { CREATED: 0, APPROVE_PASS: 3, APPROVE_REFUSE: 6, PART: 9, DONE: 12 } as const

/** Documents go through approval unless their file says `approval: false` (pre-take-stock sheets). */
export const hasApproval = (doc: DocumentSection) => doc.approval !== false

const readOnly = (field: Field): Field => ({ ...field, readOnly: true })

/**
 * The header columns every document has, written by the engine and never by a client: number,
 * status, totals, approval. Declared once here so tables, lists and answers all get them.
 */
function headerFields(doc: DocumentSection): Record<string, Field> {
  const fields: Record<string, Field> = {
    code: readOnly({ type: 'string', label: '单据号', unique: true, maxLength: 32 }),
  }
  const approval = hasApproval(doc)
  if (approval) fields.status = readOnly({ type: 'enum', enum: doc.statuses as string, label: '状态', index: true })
  if (doc.totals) {
    fields.totalNum = readOnly({ type: 'integer', label: '商品数量' })
    fields.totalGiftNum = readOnly({ type: 'integer', label: '赠品数量' })
    if (doc.totals.price) fields.totalAmount = readOnly({ type: 'decimal', scale: 2, label: '总金额' })
  }
  if (doc.settleStatus) fields.settleStatus = readOnly({ type: 'enum', enum: 'SETTLE_STATUS', label: '结算状态' })
  // Kept by every print (modules/print), in the one statement that counts it.
  fields.printCount = readOnly({ type: 'integer', label: '打印次数', default: 0 })
  fields.lastPrintTime = readOnly({ type: 'datetime', label: '最后打印时间' })
  if (!approval) return fields
  fields.approveBy = readOnly({ type: 'string', label: '审核人' })
  fields.approveTime = readOnly({ type: 'datetime', label: '审核时间' })
  fields.refuseReason = readOnly({ type: 'string', label: '拒绝理由', maxLength: 200 })
  return fields
}

/** The header entity file of a document: its declared fields plus the engine's header columns. */
export function documentHeaderFile(file: EntityFile): EntityFile {
  const doc = file.document as DocumentSection
  return { ...file, fields: { ...headerFields(doc), ...file.fields } }
}

/** The line entity file of a document: the declared line fields, the header link and the line order. */
export function documentLinesFile(file: EntityFile): EntityFile {
  const doc = file.document as DocumentSection
  return {
    name: linesEntityName(file.name),
    table: doc.lines.table,
    label: { 'zh-CN': `${doc.subject}明细` },
    fields: {
      [doc.lines.parentField]: readOnly({ type: 'ref', ref: file.name, label: doc.subject, index: true }),
      ...doc.lines.fields,
      orderNo: readOnly({ type: 'integer', label: '排序' }),
    },
  }
}
