import { createTranslator, type Locale, type Translator } from './translate.js'
import termsEnUS from './terms.en-US.json'
import termsZhHK from './terms.zh-HK.json'

/**
 * The words screens show: field labels, menu titles, button and column texts, keyed by the Simplified
 * text of schemas/ and the seeded menu tree. A text no entry covers (a menu or label an admin wrote)
 * shows as written.
 */
const CATALOGUES: Record<Exclude<Locale, 'zh-CN'>, Record<string, string>> = { 'en-US': termsEnUS, 'zh-HK': termsZhHK }

const identity = Object.assign((text: string) => text, { lookup: (text: string) => text }) as Translator
const translators = new Map<Locale, Translator>()

/** The term translator of a locale (Simplified passes through unchanged). */
export function termsOf(locale: Locale): Translator {
  if (locale === 'zh-CN') return identity
  let t = translators.get(locale)
  if (!t) translators.set(locale, (t = createTranslator(CATALOGUES[locale])))
  return t
}

export { CATALOGUES as TERM_CATALOGUES }
