import { currentLocale, useLocale } from './current-locale.js'
import { translatorOf } from '../../shared/i18n/catalogue.js'

/**
 * Fixed texts and schema labels in the chosen language, by their Simplified text (the catalogues,
 * the language's catalogue src/shared/i18n/<locale>.json, its terms): `tr('新增')`. Text no entry covers shows as written.
 */
export function useTr(): (text: string) => string {
  return translatorOf(useLocale())
}

/**
 * The same outside components (builders of columns and options); their components render again on a
 * language change because the metadata they read is rebuilt for the new language.
 */
export const tr = (text: string): string => translatorOf(currentLocale())(text)

/** `term()` lives in its own module so tables in the login route's modules can mark texts without loading the catalogues. */
export { term } from './term.js'
