import type { Locale } from './locales.js'

/**
 * A language kept in a folder outside the table (the tests' fixture language): `locale.json` holds its
 * row (this shape) beside its `catalogue.json`. Folders named in `LOCALE_DIRS` are added to the
 * server's table at start and, at build time, to the browser's (vite.config.ts), so one folder
 * is the whole language on both sides.
 */
export interface LocaleFolder {
  code: Locale
  setting: string
  name: string
  accepts: string[]
  fallback?: Locale
  /** antd's file name of the language (`antd/es/locale/{antdLocale}`). */
  antdLocale: string
  /** dayjs's name of the language (`dayjs/locale/{dayjs}`). */
  dayjs: string
}

export const LOCALE_FILE = 'locale.json'
export const CATALOGUE_FILE = 'catalogue.json'

/** The folders of `LOCALE_DIRS` (separated like PATH). */
export const localeDirs = (value: string | undefined, delimiter: string): string[] => value?.split(delimiter).filter(Boolean) ?? []
