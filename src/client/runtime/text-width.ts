let canvas: HTMLCanvasElement | undefined
/** Widths already measured, by weight and text: lists fit their headings on every render. */
const widths = new Map<string, number>()

/**
 * The width of a text in the page's font (0 where nothing can measure, e.g. a test without canvas):
 * what a label column or a column heading needs so that it is not cut or wrapped letter by letter.
 * Each text is measured once (the page's font does not change while the app runs), so a list
 * re-rendering on a click does no style work for its headings.
 */
export function textWidth(text: string, weight = ''): number {
  const key = `${weight}\u0000${text}`
  const known = widths.get(key)
  if (known !== undefined) return known
  canvas ??= document.createElement('canvas')
  const context = canvas.getContext('2d')
  if (!context) return 0
  const style = getComputedStyle(document.body)
  context.font = `${weight} ${style.fontSize || '14px'} ${style.fontFamily || 'sans-serif'}`.trim()
  const width = context.measureText(text).width
  widths.set(key, width)
  return width
}
