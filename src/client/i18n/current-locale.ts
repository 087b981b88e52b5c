import { useSyncExternalStore } from 'react'
import { SOURCE_LOCALE, type Locale } from '../../shared/i18n/locales.js'

let current: Locale = SOURCE_LOCALE
const listeners = new Set<() => void>()

/**
 * The language screens show and requests ask for (Accept-Language). The personal settings set it
 * (app/settings.ts); what translates and what calls the server reads it here, below the settings.
 */
export const currentLocale = (): Locale => current

export function setCurrentLocale(locale: Locale): void {
  if (locale === current) return
  current = locale
  for (const l of listeners) l()
}

export function useLocale(): Locale {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => current,
  )
}
