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
 * `mayShrink` tells the columns that only show something (not an input, not the row's links).
 */
export function fitColumns<C extends FitColumn>(columns: readonly C[], available: number, mayShrink: (c: C) => boolean): Fitted<C> {
  const total = columns.reduce((n, c) => n + widthOf(c), 0)
  if (available <= 0 || total <= available) return { columns: [...columns], x: total }
  const need = total - available
  const room = columns.reduce((n, c) => n + (mayShrink(c) ? widthOf(c) * (1 - SHRINK_TO) : 0), 0)
  const share = room > 0 ? Math.min(1, need / room) : 0
  const shrunk = columns.map((c) => (mayShrink(c) ? { ...c, width: Math.floor(widthOf(c) - widthOf(c) * (1 - SHRINK_TO) * share) } : c))
  const x = shrunk.reduce((n, c) => n + widthOf(c), 0)
  if (x <= available) return { columns: shrunk, x }
  const left = shrunk.filter((c) => c.fixed === 'left' || c.fixed === true)
  const right = shrunk.filter((c) => c.fixed === 'right').map((c) => ({ ...c, fixed: 'left' as const }))
  const rest = shrunk.filter((c) => !c.fixed)
  return { columns: [...left, ...right, ...rest], x }
}
