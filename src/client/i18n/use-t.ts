import { useCallback } from 'react'
import { useLocale } from './current-locale.js'
import { translate, type MessageKey } from './messages.js'

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string

/** The shell's messages in the chosen language (personal settings; Chinese by default). */
export function useT(): Translate {
  const locale = useLocale()
  return useCallback((key, params) => translate(locale, key, params), [locale])
}
