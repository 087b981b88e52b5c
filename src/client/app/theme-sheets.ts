import type { ThemeMode } from './settings.js'
import { REDUCED_MOTION_QUERY } from '../../shared/look/ui-constants.js'

/** The meta tag naming the build's dark and night sheets (written by vite.config.ts). */
export const THEME_SHEETS_META = 'antd-theme-sheets'

/**
 * Links the build's antd sheets of the dark or night theme (vite.config.ts `antdStaticStyles`), for the
 * user who chose it, and answers when they are loaded. They come after the light sheets, so their map of
 * styles is the one @ant-design/cssinjs reads at the first render: antd then makes none of the theme's
 * styles at run time, as for light. That map is read once, so the first render waits for them. A build
 * without them (`npm run dev`) or a light theme links nothing; a theme changed later makes its styles at
 * run time until the next load.
 */
export function linkThemeSheets(mode: ThemeMode): Promise<void> {
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${THEME_SHEETS_META}"]`)
  if (mode === 'light' || !meta) return Promise.resolve()
  const sheets = JSON.parse(meta.content) as Record<string, string>
  const links = (['full', 'reduced'] as const).flatMap((motion) => {
    const href = sheets[`${mode}-${motion}`]
    if (!href) return []
    const link = document.createElement('link')
    link.rel = 'stylesheet'
    link.href = href
    if (motion === 'reduced') link.media = REDUCED_MOTION_QUERY
    return [link]
  })
  // A sheet that fails to load leaves antd to make the styles at run time, as before.
  const loaded = links.map(
    (link) =>
      new Promise<void>((settle) => {
        link.addEventListener('load', () => settle())
        link.addEventListener('error', () => settle())
      }),
  )
  document.head.append(...links)
  return Promise.all(loaded).then(() => undefined)
}
