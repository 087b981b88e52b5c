import { isRegistered, registerCatalogues } from '../../shared/i18n/catalogue.js'
import type { Locale } from '../../shared/i18n/translate.js'
import { localeOf, updateSettings, type Language } from '../app/settings.js'

// One lazy chunk per language: a Simplified user never downloads them, others only their own.
const LOADERS = {
  'en-US': () => Promise.all([import('../../shared/i18n/terms.en-US.json'), import('../../shared/i18n/messages.en-US.json')]),
  'zh-HK': () => Promise.all([import('../../shared/i18n/terms.zh-HK.json'), import('../../shared/i18n/messages.zh-HK.json')]),
} as const

/** Loads and registers a language's catalogues (nothing to do for Simplified or one loaded before). */
export async function loadCatalogues(locale: Locale): Promise<void> {
  if (isRegistered(locale)) return
  const [terms, messages] = await LOADERS[locale as keyof typeof LOADERS]()
  registerCatalogues(locale as keyof typeof LOADERS, { terms: terms.default, messages: messages.default })
}

/** Switches the language once its catalogues are there, so no screen shows half-translated in between. */
export async function chooseLanguage(language: Language): Promise<void> {
  await loadCatalogues(localeOf(language)).catch(() => undefined)
  updateSettings({ language })
}
