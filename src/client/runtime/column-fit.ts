/**
 * Column widths of a table from its declared columns, fitted to the width it has. A sticky (fixed)
 * column sits over whatever scrolls beneath it, so the widths are the declared ones (never grown by
 * content), and when they do not fit, the columns that only show something give up to a quarter of
 * their width first. A table that still does not fit scrolls, and its right-fixed columns join the
 * left-fixed ones: at rest a column fixed on the left covers nothing, while one on the right would
 * sit over the last visible column (the 结算单's 优惠金额 input).
 */

/** What fitting reads and writes of a column (antd's ColumnType has these). */
export interface FitColumn {
  key?: unknown
  width?: number | string
  fixed?: 'left' | 'right' | boolean
}

/** The width of a column that declares none. */
const UNDECLARED = 100
/** How far a column that may shrink gives way: to this share of its declared width. */
export const SHRINK_TO = 0.75

const widthOf = (c: FitColumn) => (typeof c.width === 'number' ? c.width : UNDECLARED)

export interface Fitted<C> {
  columns: C[]
  /** The table's scroll width (antd `scroll.x`): the sum of the widths. */
  x: number
}

/**
 * `available` is the width the table is given (0 while unknown: declared widths as they are);
 * `mayShrink` tells the columns that only show something (not an input, not the row's links);
 * `narrowest` how far such a column may give way (a share of its declared width unless told);
 * `rightStays` keeps right-fixed columns right in a table that still overflows (a list, whose links cover no input).
 */
export function fitColumns<C extends FitColumn>(
  columns: readonly C[],
  available: number,
  mayShrink: (c: C) => boolean,
  { rightStays = false, narrowest = (c: C) => widthOf(c) * SHRINK_TO }: { rightStays?: boolean; narrowest?: (c: C) => number } = {},
): Fitted<C> {
  const total = columns.reduce((n, c) => n + widthOf(c), 0)
  if (available <= 0 || total <= available) return { columns: [...columns], x: total }
  const need = total - available
  const give = (c: C) => (mayShrink(c) ? Math.max(0, widthOf(c) - narrowest(c)) : 0)
  const room = columns.reduce((n, c) => n + give(c), 0)
  const share = room > 0 ? Math.min(1, need / room) : 0
  const shrunk = columns.map((c) => (give(c) > 0 ? { ...c, width: Math.floor(widthOf(c) - give(c) * share) } : c))
  const x = shrunk.reduce((n, c) => n + widthOf(c), 0)
  if (x <= available || rightStays) return { columns: shrunk, x }
  const left = shrunk.filter((c) => c.fixed === 'left' || c.fixed === true)
  const right = shrunk.filter((c) => c.fixed === 'right').map((c) => ({ ...c, fixed: 'left' as const }))
  const rest = shrunk.filter((c) => !c.fixed)
  return { columns: [...left, ...right, ...rest], x }
}

/** How far a list's column gives way: to this share of its declared width, its heading kept whole. */
export const LIST_SHRINK_TO = 0.5

/**
 * A list's columns (entity lists, pickers, custom lists): declared widths fitted to the card by the same
 * rule; a list has no input to keep wide, so a column gives way further, as far as its heading stays
 * whole (a cell that is cut shows its text on hover), while the row's links and 序号 give nothing. A list
 * that fits fixes nothing (a sticky column only matters while the table scrolls); one that still overflows
 * keeps 操作 fixed right, where links are looked for.
 */
export function fitListColumns<C extends FitColumn>(columns: readonly C[], available: number, headingWidth: (c: C) => number = () => 0): Fitted<C> {
  const fitted = fitColumns(columns, available, (c) => !c.fixed, {
    rightStays: true,
    narrowest: (c) => Math.min(widthOf(c), Math.max(headingWidth(c), widthOf(c) * LIST_SHRINK_TO)),
  })
  if (available <= 0 || fitted.x > available) return fitted
  return { columns: fitted.columns.map((c) => (c.fixed ? { ...c, fixed: undefined } : c)), x: fitted.x }
}
