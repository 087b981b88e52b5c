import type { Locale as AntdLocale } from 'antd/es/locale'
import { isRegistered, registerCatalogues } from '../../shared/i18n/catalogue.js'
import { localeRow, type Locale } from '../../shared/i18n/locales.js'

const antdLocales = new Map<Locale, AntdLocale>()

/**
 * Loads what a language needs before it shows (its row in shared/i18n/locales.ts): antd's and dayjs's
 * texts and its catalogue, one lazy chunk each, so a user downloads only their own language.
 */
export async function loadLocale(locale: Locale): Promise<void> {
  const row = localeRow(locale)
  if (!row || (antdLocales.has(locale) && isRegistered(locale))) return
  const [antd, , catalogues] = await Promise.all([row.antd(), row.loadDayjs(), row.catalogue?.()])
  antdLocales.set(locale, antd.default)
  if (catalogues) registerCatalogues(locale, catalogues)
}

/** antd's texts of a loaded language (antd's own default, English, until then). */
export const antdLocaleOf = (locale: Locale): AntdLocale | undefined => antdLocales.get(locale)
