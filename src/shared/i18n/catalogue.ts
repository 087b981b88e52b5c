import { createTranslator, type Locale, type Translator } from './translate.js'

/**
 * The catalogues of each language besides Simplified, keyed by the Simplified text:
 * - terms: what screens show (field labels, menu titles, buttons, column and dialog titles), keyed by
 *   the text of schemas/, the seeded menu tree and the client's fixed texts;
 * - messages: what the server (and the browser's copy of its validation) answers, with `{n}` parameters.
 * A text no entry covers (a menu or label an admin wrote) shows as written.
 *
 * This module only holds what has been registered: the server and the tests register every language at
 * once (all-catalogues.ts), the browser only the language chosen, when it is chosen (the catalogues are
 * the largest part of the login route otherwise). A language not registered yet shows Simplified.
 */
export interface Catalogues {
  terms: Readonly<Record<string, string>>
  messages: Readonly<Record<string, string>>
}

type OtherLocale = Exclude<Locale, 'zh-CN'>

const registered = new Map<OtherLocale, Catalogues>()
const translators = new Map<Locale, Translator>()
const EMPTY: Catalogues = { terms: {}, messages: {} }
const identity = Object.assign((text: string) => text, { lookup: (text: string) => text }) as Translator

export function registerCatalogues(locale: OtherLocale, catalogues: Catalogues): void {
  registered.set(locale, catalogues)
  translators.delete(locale)
}

export const isRegistered = (locale: Locale): boolean => locale === 'zh-CN' || registered.has(locale)

/** The registered catalogues of a language (empty until registered). */
export const catalogueOf = (locale: OtherLocale): Catalogues => registered.get(locale) ?? EMPTY

/** The translator of a locale (Simplified passes through unchanged, as does a language not registered yet). */
export function translatorOf(locale: Locale): Translator {
  if (locale === 'zh-CN' || !registered.has(locale)) return identity
  let t = translators.get(locale)
  if (!t) {
    const { messages, terms } = registered.get(locale)!
    translators.set(locale, (t = createTranslator(messages, terms)))
  }
  return t
}
