import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { AppRoot } from './root/AppRoot.js'
import { getSettings, localeOf } from './app/settings.js'
import { loadCatalogues } from './i18n/load-catalogues.js'
import './styles.css'

// A user who chose 繁體 or English sees the first screen in that language (Simplified needs no catalogue).
await loadCatalogues(localeOf(getSettings().language)).catch(() => undefined)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppRoot />
  </StrictMode>,
)
