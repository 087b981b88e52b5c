/** Luckysheet's numbered font list: a cell's `ff` may be an index into it or a font name. */
export const LUCKYSHEET_FONTS = ['Times New Roman', 'Arial', 'Tahoma', 'Verdana', '微软雅黑', '宋体', '黑体', '楷体', '仿宋', '新宋体', '华文新魏', '华文行楷', '华文隶书']

/** The font a cell without one is shown in: the Chinese UI font (FortuneSheet's own default is Times New Roman). */
export const SHEET_DEFAULT_FONT = '微软雅黑'

/** A cell's font by name: an index of the numbered list becomes the name it stands for. */
export function fontName(ff: unknown): string | undefined {
  if (typeof ff === 'number' || /^\d+$/.test(String(ff ?? ''))) return LUCKYSHEET_FONTS[Number(ff)]
  return typeof ff === 'string' && ff ? ff : undefined
}
