import { locale } from '@fortune-sheet/core'
import { SHEET_DEFAULT_FONT } from '../../../../shared/spreadsheet-fonts.js'

/**
 * FortuneSheet draws a cell without a font in the first font of its locale's list (Times New Roman in
 * Chinese) and shows it in the toolbar: the Chinese UI font goes first. Stored indices are named on
 * load (workbook-content.ts), so moving it does not change what an old `ff` index meant.
 */
export function preferChineseUiFont(): void {
  const zh = locale({ lang: 'zh' } as Parameters<typeof locale>[0])
  if (zh.fontarray[0] !== SHEET_DEFAULT_FONT) zh.fontarray = [SHEET_DEFAULT_FONT, ...zh.fontarray.filter((f: string) => f !== SHEET_DEFAULT_FONT)]
}
