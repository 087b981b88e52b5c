// First: a test build's further languages (LOCALE_DIRS, vite.config.ts) join the table before it is read.
import 'virtual:extra-locales'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { AppRoot } from './root/AppRoot.js'
import { getSettings, localeOf } from './app/settings.js'
import { loadLocale } from './i18n/load-locale.js'
import { getSession } from './app/session.js'
import './styles.css'

// Signed in already (a reload, a link): the shell's chunk and its first reads start now, beside the language,
// not after it; the login route loads none of them.
const { token } = getSession()
if (token) {
  void import('./root/SignedIn.js')
  void import('./root/boot-reads.js').then((boot) => boot.startBootReads(token))
}

// The first screen shows in the language the user chose (its antd and dayjs texts and catalogue loaded first),
// and in a dark or night theme with antd's styles of that theme from the build's sheets (app/theme-sheets.ts).
// Their module is loaded by those users only: the login route of the light theme carries none of it.
const { theme, language } = getSettings()
await Promise.all([
  loadLocale(localeOf(language)).catch(() => undefined),
  theme === 'light' ? undefined : import('./app/theme-sheets.js').then((sheets) => sheets.linkThemeSheets(theme)),
])

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppRoot />
  </StrictMode>,
)
