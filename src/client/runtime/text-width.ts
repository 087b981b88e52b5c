let canvas: HTMLCanvasElement | undefined

/**
 * The width of a text in the page's font (0 where nothing can measure, e.g. a test without canvas):
 * what a label column or a column heading needs so that it is not cut or wrapped letter by letter.
 */
export function textWidth(text: string, weight = ''): number {
  canvas ??= document.createElement('canvas')
  const context = canvas.getContext('2d')
  if (!context) return 0
  const style = getComputedStyle(document.body)
  context.font = `${weight} ${style.fontSize || '14px'} ${style.fontFamily || 'sans-serif'}`.trim()
  return context.measureText(text).width
}
