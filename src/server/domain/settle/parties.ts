import { sql, type RawBuilder } from 'kysely'
import { SETTLE_CHECK_SHEET_CALC_TYPE, SETTLE_PARTY_TYPE, SETTLE_VOUCHER_TYPE } from '../../../shared/generated/enum-codes.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import { linesEntityName, type DocumentSection } from '../../../shared/metadata/document-model.js'
import type { EntityRegistry } from '../../engine/entity-registry.js'

/** 计算方式 of a check-sheet line (SETTLE_CHECK_SHEET_CALC_TYPE): ADD raises what is owed, SUB lowers it. */
export const CalcType = SETTLE_CHECK_SHEET_CALC_TYPE

/** SETTLE_PARTY_TYPE of a ledger row. */
export const PartyType = SETTLE_PARTY_TYPE

/** SETTLE_VOUCHER_TYPE: which document made a ledger row. */
export const VoucherType = SETTLE_VOUCHER_TYPE

type SettleDeclaration = NonNullable<DocumentSection['settle']>

/**
 * A kind of business document that a check sheet takes (domain-rules §2.7), read from the `settle`
 * section of its file: its table and subject, its party and amount columns, its 业务类型 code on the
 * check-sheet line, its voucher type, and whether it adds or subtracts. A fee sheet's direction decides by
 * a header column: the value in `addWhen` adds (supplier 应付款, customer 应收款), any other subtracts.
 */
export interface SettleKind {
  doc: string
  table: string
  subject: string
  partyField: string
  partyColumn: string
  amountField: string
  amountColumn: string
  bizType: number
  voucherType: number
  calc: number | { field: string; column: string; addWhen: number }
}

interface SheetOfSide {
  doc: string
  table: string
  detail: string
  subject: string
  voucherType: number
}

/** One side of settlement: the party, the kinds its check sheets take, its check and settle sheets. */
export interface SettleSide {
  name: SettleDeclaration['side']
  partyType: number
  /** The party field of the side's check and settle sheets and of their candidates calls. */
  partyField: 'supplierId' | 'customerId'
  partyColumn: 'supplier_id' | 'customer_id'
  partyLabel: string
  /** The amounts as this side names them: a supplier is paid (应付/实付), a customer pays us (应收/实收). */
  amounts: AmountWords
  kinds: SettleKind[]
  check: SheetOfSide
  settle: SheetOfSide
}

/** The names of a side's amounts, as its check and settle sheets label them (schemas/documents). */
export interface AmountWords {
  /** What a check-sheet line holds of a document. */
  due: string
  /** What a settle-sheet line pays or receives now. */
  settled: string
  /** What a check sheet still has open. */
  open: string
  /** Money moving, in the refusal when a check sheet cannot take it. */
  money: string
}

/** What settlement itself defines of a side (the party, and which check and settle sheets it has). */
const SIDE_DEFINITIONS = [
  {
    name: 'supplier',
    partyType: PartyType.SUPPLIER,
    partyField: 'supplierId',
    partyColumn: 'supplier_id',
    partyLabel: '供应商',
    amounts: { due: '应付金额', settled: '实付金额', open: '未付金额', money: '付款金额' },
    check: { doc: 'settleCheckSheet', voucherType: VoucherType.SETTLE_CHECK_SHEET },
    settle: { doc: 'settleSheet', voucherType: VoucherType.SETTLE_SHEET },
  },
  {
    name: 'customer',
    partyType: PartyType.CUSTOMER,
    partyField: 'customerId',
    partyColumn: 'customer_id',
    partyLabel: '客户',
    amounts: { due: '应收金额', settled: '实收金额', open: '未收金额', money: '收款金额' },
    check: { doc: 'customerSettleCheckSheet', voucherType: VoucherType.CUSTOMER_SETTLE_CHECK_SHEET },
    settle: { doc: 'customerSettleSheet', voucherType: VoucherType.CUSTOMER_SETTLE_SHEET },
  },
] as const

/** The enumeration of a side's 业务类型: the one the check sheet's line field `bizType` names. */
const BIZ_TYPE_FIELD = 'bizType'
const VOUCHER_TYPES = 'SETTLE_VOUCHER_TYPE'

function sheetOf(registry: EntityRegistry, sheet: { doc: string; voucherType: number }): SheetOfSide {
  const header = registry.get(sheet.doc)
  const doc = header.file.document as DocumentSection
  return { doc: sheet.doc, table: header.table, detail: doc.lines.table, subject: doc.subject, voucherType: sheet.voucherType }
}

/** The kind a document file declares; a field it names that the header lacks stops the start. */
function kindOf(entity: EntityModel, declared: SettleDeclaration): SettleKind {
  const doc = entity.file.document as DocumentSection
  const column = (name: string) => {
    const field = entity.byName.get(name)
    if (!field) throw new Error(`${entity.name}: document.settle names unknown header field ${name}`)
    return field.column
  }
  if (!doc.settleStatus) throw new Error(`${entity.name}: document.settle needs settleStatus (what a check sheet holds and settles)`)
  const amountField = declared.amount ?? 'totalAmount'
  const calc = declared.calc
  return {
    doc: entity.name,
    table: entity.table,
    subject: doc.subject,
    partyField: declared.party,
    partyColumn: column(declared.party),
    amountField,
    amountColumn: column(amountField),
    bizType: declared.bizType,
    voucherType: declared.voucherType,
    calc: typeof calc === 'string' ? (calc === 'add' ? CalcType.ADD : CalcType.SUB) : { ...calc, column: column(calc.field) },
  }
}

/**
 * Adds `code` to an enumeration when the enumeration lacks it, labelled as the document file is, so a new
 * kind's 业务类型 and voucher type read as its name in lists, pickers and reports (the spec's items stay).
 */
function ensureEnumItem(registry: EntityRegistry, name: string, code: number, entity: EntityModel) {
  if (registry.enums.parse(name, code) !== undefined) return
  const label = entity.file.label
  registry.addEnumItem(name, {
    code,
    key: entity.name.replace(/([A-Z])/g, '_$1').toUpperCase(),
    'zh-CN': label['zh-CN'],
    'zh-HK': label['zh-HK'] ?? label['zh-CN'],
    'en-US': label['en-US'] ?? label['zh-CN'],
  })
}

const built = new WeakMap<EntityRegistry, SettleSide[]>()

/**
 * Both sides of settlement, from the loaded files: every document whose file has a `settle` section is a
 * kind of its side (ordered by 业务类型, the fixed order tables are locked in); the check and settle sheets'
 * tables and subjects come from their files. Built once per registry at start-up, where a duplicate code
 * or an unknown field stops the start.
 */
export function settleSides(registry: EntityRegistry): SettleSide[] {
  const cached = built.get(registry)
  if (cached) return cached
  const voucherTypes = new Map<number, string>()
  for (const def of SIDE_DEFINITIONS) {
    voucherTypes.set(def.check.voucherType, def.check.doc)
    voucherTypes.set(def.settle.voucherType, def.settle.doc)
  }
  const sides = SIDE_DEFINITIONS.map((def): SettleSide => {
    const check = sheetOf(registry, def.check)
    const bizTypes = registry.get(linesEntityName(def.check.doc)).byName.get(BIZ_TYPE_FIELD)?.enum
    if (!bizTypes) throw new Error(`${def.check.doc}: its lines have no ${BIZ_TYPE_FIELD} enumeration`)
    const kinds: SettleKind[] = []
    for (const entity of registry.documents()) {
      const declared = (entity.file.document as DocumentSection).settle
      if (!declared || declared.side !== def.name) continue
      const kind = kindOf(entity, declared)
      const twin = kinds.find((k) => k.bizType === kind.bizType)
      if (twin) throw new Error(`${kind.doc}: document.settle.bizType ${kind.bizType} is ${twin.doc}'s too`)
      const voucherTwin = voucherTypes.get(kind.voucherType)
      if (voucherTwin) throw new Error(`${kind.doc}: document.settle.voucherType ${kind.voucherType} is ${voucherTwin}'s too`)
      voucherTypes.set(kind.voucherType, kind.doc)
      ensureEnumItem(registry, bizTypes, kind.bizType, entity)
      ensureEnumItem(registry, VOUCHER_TYPES, kind.voucherType, entity)
      kinds.push(kind)
    }
    kinds.sort((a, b) => a.bizType - b.bizType)
    return { ...def, kinds, check, settle: sheetOf(registry, def.settle) }
  })
  built.set(registry, sides)
  return sides
}

/** The side whose check or settle sheet is this document (by entity name). */
export function sideOfSheet(registry: EntityRegistry, docName: string): SettleSide {
  const side = settleSides(registry).find((s) => s.check.doc === docName || s.settle.doc === docName)
  if (!side) throw new Error(`${docName} is not a check or settle sheet`)
  return side
}

/** The side and kind of a business document that takes part in settlement, if it is one. */
export function kindOfDocument(registry: EntityRegistry, docName: string): { side: SettleSide; kind: SettleKind } | undefined {
  for (const side of settleSides(registry)) {
    const kind = side.kinds.find((k) => k.doc === docName)
    if (kind) return { side, kind }
  }
  return undefined
}

/** ADD or SUB of one document of this kind (a fee sheet by its direction), from its header (wire names). */
export function calcTypeOf(kind: SettleKind, header: Record<string, unknown>): number {
  if (typeof kind.calc === 'number') return kind.calc
  return Number(header[kind.calc.field]) === kind.calc.addWhen ? CalcType.ADD : CalcType.SUB
}

/** The same as SQL over the kind's table (a constant, or a CASE on its column); constants only, nothing bound. */
export function calcTypeSql(kind: SettleKind): RawBuilder<number> {
  if (typeof kind.calc === 'number') return sql<number>`${sql.lit(kind.calc)}`
  return sql<number>`case when ${sql.ref(kind.calc.column)} = ${sql.lit(kind.calc.addWhen)} then ${sql.lit(CalcType.ADD)} else ${sql.lit(CalcType.SUB)} end`
}
