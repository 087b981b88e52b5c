import { createTranslator, type Locale, type Translator } from './translate.js'
import messagesEnUS from './messages.en-US.json'
import messagesZhHK from './messages.zh-HK.json'
import termsEnUS from './terms.en-US.json'
import termsZhHK from './terms.zh-HK.json'

/**
 * The catalogues of each language besides Simplified, keyed by the Simplified text:
 * - terms: what screens show (field labels, menu titles, buttons, column and dialog titles), keyed by
 *   the text of schemas/, the seeded menu tree and the client's fixed texts;
 * - messages: what the server (and the browser's copy of its validation) answers, with `{n}` parameters.
 * A text no entry covers (a menu or label an admin wrote) shows as written.
 */
export const CATALOGUES = {
  'en-US': { terms: termsEnUS, messages: messagesEnUS },
  'zh-HK': { terms: termsZhHK, messages: messagesZhHK },
} as const satisfies Record<Exclude<Locale, 'zh-CN'>, { terms: Record<string, string>; messages: Record<string, string> }>

const identity = Object.assign((text: string) => text, { lookup: (text: string) => text }) as Translator
const translators = new Map<Locale, Translator>()

/** The translator of a locale (Simplified passes through unchanged). */
export function translatorOf(locale: Locale): Translator {
  if (locale === 'zh-CN') return identity
  let t = translators.get(locale)
  if (!t) translators.set(locale, (t = createTranslator(CATALOGUES[locale].messages, CATALOGUES[locale].terms)))
  return t
}
