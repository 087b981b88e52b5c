/**
 * FortuneSheet's runtime sheets to the stored Luckysheet shape (001 §3: `sheets`, `info.name`): the
 * 2-D `data` matrix becomes sparse `celldata` ({r, c, v}) and runtime-only state (selection, calc chain,
 * scroll) is left out, so the server stores and exports one shape.
 */
type Cell = Record<string, unknown> | null | undefined
type RuntimeSheet = Record<string, unknown> & { name: string; data?: Cell[][]; celldata?: { r: number; c: number; v: unknown }[] }

const KEPT = ['name', 'id', 'order', 'status', 'color', 'hide', 'row', 'column', 'config', 'images', 'frozen', 'zoomRatio', 'dataVerification', 'hyperlink', 'defaultRowHeight', 'defaultColWidth']

export function toStoredSheets(sheets: RuntimeSheet[]): Record<string, unknown>[] {
  return sheets.map((sheet, order) => {
    const out: Record<string, unknown> = {}
    for (const key of KEPT) if (sheet[key] !== undefined && sheet[key] !== null) out[key] = sheet[key]
    out.order = sheet.order ?? order
    const celldata: { r: number; c: number; v: Cell }[] = []
    if (Array.isArray(sheet.data)) {
      sheet.data.forEach((row, r) =>
        row?.forEach((cell, c) => {
          if (cell !== null && cell !== undefined) celldata.push({ r, c, v: cell })
        }),
      )
    } else if (Array.isArray(sheet.celldata)) celldata.push(...(sheet.celldata as { r: number; c: number; v: Cell }[]))
    out.celldata = celldata
    return out
  })
}

/**
 * Stored sheets as FortuneSheet opens them: each sheet keeps (or gets) an id and a calc chain of its
 * formula cells, so editing a cell a formula reads recalculates it (the chain is runtime state and is
 * not stored).
 */
export function toEditorSheets(sheets: Record<string, unknown>[]): Record<string, unknown>[] {
  return sheets.map((sheet, i) => {
    const id = typeof sheet.id === 'string' && sheet.id ? sheet.id : `sheet_${i + 1}`
    const celldata = Array.isArray(sheet.celldata) ? (sheet.celldata as { r: number; c: number; v: unknown }[]) : []
    const calcChain = celldata
      .filter((cell) => cell.v !== null && typeof cell.v === 'object' && typeof (cell.v as { f?: unknown }).f === 'string')
      .map((cell) => ({ r: cell.r, c: cell.c, id }))
    return { ...sheet, id, calcChain }
  })
}
