import { fontName } from '../../../../shared/spreadsheet-fonts.js'

/**
 * FortuneSheet's runtime sheets to the stored Luckysheet shape (001 §3: `sheets`, `info.name`): the
 * 2-D `data` matrix becomes sparse `celldata` ({r, c, v}) and runtime-only state (selection, calc chain,
 * scroll) is left out, so the server stores and exports one shape.
 */
type Cell = Record<string, unknown> | null | undefined
type RuntimeSheet = Record<string, unknown> & { name: string; data?: Cell[][]; celldata?: { r: number; c: number; v: unknown }[] }

const KEPT = ['name', 'id', 'order', 'status', 'color', 'hide', 'row', 'column', 'config', 'images', 'frozen', 'zoomRatio', 'dataVerification', 'hyperlink', 'defaultRowHeight', 'defaultColWidth']

/**
 * A number with no alignment of its own is stored right-aligned, as the editor shows it (on load, and after
 * typing through its afterUpdateCell hook): the file holds what the user sees even when the save runs before
 * that hook's format has reached the sheet (a number typed and Ctrl+S at once).
 */
const asShown = (cell: Cell): Cell => (isUnalignedNumber(cell) ? { ...(cell as Record<string, unknown>), ht: RIGHT } : cell)

export function toStoredSheets(sheets: RuntimeSheet[]): Record<string, unknown>[] {
  return sheets.map((sheet, order) => {
    const out: Record<string, unknown> = {}
    for (const key of KEPT) if (sheet[key] !== undefined && sheet[key] !== null) out[key] = sheet[key]
    out.order = sheet.order ?? order
    const celldata: { r: number; c: number; v: Cell }[] = []
    if (Array.isArray(sheet.data)) {
      sheet.data.forEach((row, r) =>
        row?.forEach((cell, c) => {
          if (cell !== null && cell !== undefined) celldata.push({ r, c, v: asShown(cell) })
        }),
      )
    } else if (Array.isArray(sheet.celldata)) for (const cell of sheet.celldata as { r: number; c: number; v: Cell }[]) celldata.push({ ...cell, v: asShown(cell.v) })
    out.celldata = celldata
    return out
  })
}

/** A cell holding a number (Luckysheet's type `n`, or a bare number) with no alignment of its own. */
export function isUnalignedNumber(v: unknown): boolean {
  if (!v || typeof v !== 'object') return false
  const cell = v as { v?: unknown; ht?: unknown; ct?: { t?: unknown } }
  return (cell.ht === undefined || cell.ht === null) && (cell.ct?.t === 'n' || (cell.ct === undefined && typeof cell.v === 'number'))
}

/** Right alignment (Luckysheet's ht 2), as a spreadsheet shows a number; FortuneSheet would draw it left. */
export const RIGHT = 2

/**
 * A sheet's opening selection, A1 whole: FortuneSheet's own default (`row: [0], column: [0]`) has no end
 * and its name box reads A1:NaN. Runtime state: toStoredSheets leaves it out.
 */
export function firstCellSelection(): Record<string, unknown>[] {
  return [{ row: [0, 0], column: [0, 0], row_focus: 0, column_focus: 0 }]
}

/**
 * Stored sheets as FortuneSheet opens them: each sheet keeps (or gets) an id and a calc chain of its
 * formula cells, so editing a cell a formula reads recalculates it (the chain is runtime state and is
 * not stored), it opens with A1 selected; a number without an alignment is right-aligned, and a font given by its index in
 * Luckysheet's list is named (the editor's list starts with the Chinese UI font, so indices would shift).
 */
export function toEditorSheets(sheets: Record<string, unknown>[]): Record<string, unknown>[] {
  return sheets.map((sheet, i) => {
    const id = typeof sheet.id === 'string' && sheet.id ? sheet.id : `sheet_${i + 1}`
    const celldata = (Array.isArray(sheet.celldata) ? (sheet.celldata as { r: number; c: number; v: unknown }[]) : []).map((cell) => {
      if (!cell.v || typeof cell.v !== 'object') return cell
      let v = cell.v as Record<string, unknown>
      if (isUnalignedNumber(v)) v = { ...v, ht: RIGHT }
      if (v.ff !== undefined && typeof v.ff !== 'string') v = { ...v, ff: fontName(v.ff) }
      return v === cell.v ? cell : { ...cell, v }
    })
    const calcChain = celldata
      .filter((cell) => cell.v !== null && typeof cell.v === 'object' && typeof (cell.v as { f?: unknown }).f === 'string')
      .map((cell) => ({ r: cell.r, c: cell.c, id }))
    const selection = Array.isArray(sheet.luckysheet_select_save) && sheet.luckysheet_select_save.length ? sheet.luckysheet_select_save : firstCellSelection()
    return { ...sheet, id, celldata, calcChain, luckysheet_select_save: selection }
  })
}
