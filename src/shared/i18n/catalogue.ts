import { SOURCE_LOCALE, type Catalogues, type Locale } from './locales.js'
import { createTranslator, type Translator } from './translate.js'

/**
 * The catalogues registered so far: the server and the tests register every language of the table at
 * once (all-catalogues.ts), the browser only the language chosen, when it is chosen (the catalogues are
 * the largest part of the login route otherwise). A language not registered yet shows Simplified.
 */
export type { Catalogues }

const registered = new Map<Locale, Catalogues>()
const translators = new Map<Locale, Translator>()
const EMPTY: Catalogues = { terms: {}, messages: {} }
const identity = Object.assign((text: string) => text, { lookup: (text: string) => text }) as Translator

export function registerCatalogues(locale: Locale, catalogues: Catalogues): void {
  registered.set(locale, catalogues)
  translators.delete(locale)
}

export const isRegistered = (locale: Locale): boolean => locale === SOURCE_LOCALE || registered.has(locale)

/** The registered catalogues of a language (empty until registered). */
export const catalogueOf = (locale: Locale): Catalogues => registered.get(locale) ?? EMPTY

/** The translator of a locale (Simplified passes through unchanged, as does a language not registered yet). */
export function translatorOf(locale: Locale): Translator {
  if (locale === SOURCE_LOCALE || !registered.has(locale)) return identity
  let t = translators.get(locale)
  if (!t) {
    const { messages, terms } = registered.get(locale)!
    translators.set(locale, (t = createTranslator(messages, terms)))
  }
  return t
}
