/** The hidden pages of 商机 and 合同 and their titles. */
export type DealKind = 'business' | 'contract'
/** The hidden child pages of 商机 and 合同 (spec 000 §2). */
export type DealMode = 'add' | 'modify' | 'detail' | 'detailV2' | 'print' | 'h5' | 'h5add'

/** Simplified texts: the keys screens translate through tr() where they show them. */
export const SUBJECT: Record<DealKind, string> = { business: '商机', contract: '合同' } // i18n-ignore

/** A page's title in Simplified (the shell's tab and the page's card show it through tr()). */
export const dealPageTitle = (kind: DealKind, mode: DealMode) =>
  ({ add: '新增', h5add: '新增', modify: '修改', detail: '', detailV2: '', print: '打印', h5: '' })[mode] + // i18n-ignore
  SUBJECT[kind] +
  ({ add: '', h5add: '（移动端）', modify: '', detail: '详情', detailV2: '概览', print: '', h5: '详情（移动端）' })[mode] // i18n-ignore

