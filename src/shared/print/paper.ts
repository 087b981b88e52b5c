/** Paper sizes in millimetres, the ones Chinese offices print on: A4, A5 landscape and the continuous multi-part forms (241 mm wide). */
export const PAPER_PRESETS = {
  A4: { width: 210, height: 297 },
  A5L: { width: 210, height: 148 },
  '241x93.1': { width: 241, height: 93.1 },
  '241x140': { width: 241, height: 140 },
  '241x279.4': { width: 241, height: 279.4 },
} as const

export type PaperPreset = keyof typeof PAPER_PRESETS | 'custom'

/** How the designer names each preset (Simplified; translated by the catalogues). */
export const PAPER_LABELS: Record<PaperPreset, string> = {
  A4: 'A4',
  A5L: 'A5横向',
  '241x93.1': '241×93.1mm（三等分）',
  '241x140': '241×140mm（二等分）',
  '241x279.4': '241×279.4mm（整张）',
  custom: '自定义',
}

/** A custom paper's bounds: a label strip to a large ledger sheet. */
export const PAPER_MIN_MM = 20
export const PAPER_MAX_MM = 1200
