import { currentLocale } from '../../i18n/current-locale.js'
import { catalogueOf } from '../../../shared/i18n/catalogue.js'
import type { Locale } from '../../../shared/i18n/locales.js'

const PARAM = /\{\d+\}/g
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The translations, in `locale`, of the catalogue's server messages whose Simplified wording `simplified` matches. */
function translatedPatterns(simplified: RegExp, locale: Locale): RegExp[] {
  const out: RegExp[] = []
  for (const [key, target] of Object.entries(catalogueOf(locale).messages)) {
    if (!simplified.test(key.replace(PARAM, '1'))) continue
    // A parameter of the translation matches whatever the server put there.
    out.push(new RegExp(`^${target.split(PARAM).map(escape).join('[\\s\\S]+?')}$`))
  }
  return out
}

/**
 * A test for server messages by their Simplified wording, whatever the language: the server answers
 * in the request's language, so a refusal about the SKU lines may arrive as English. The Simplified
 * pattern picks the message catalogue's entries it covers, and their translations in the chosen
 * language match too (a form that could not recognise its own stale message would refuse every save).
 */
export function serverMessageMatcher(simplified: RegExp, locale: () => Locale = currentLocale): (message: string) => boolean {
  const cache = new Map<Locale, RegExp[]>()
  return (message) => {
    if (simplified.test(message)) return true
    const current = locale()
    if (current === 'zh-CN') return false
    let patterns = cache.get(current)
    if (!patterns) cache.set(current, (patterns = translatedPatterns(simplified, current)))
    return patterns.some((p) => p.test(message))
  }
}
