import type { Locale as AntdLocale } from 'antd/es/locale'

/** A language's code (BCP 47): the key of labels in schemas/, of catalogues and of Accept-Language. */
export type Locale = string

/**
 * A language's catalogue, keyed by the Simplified text:
 * - terms: what screens show (field labels, menu titles, buttons, column and dialog titles, the shell's
 *   words), keyed by the text of schemas/, the seeded menu tree and the client's fixed texts;
 * - messages: what the server (and the browser's copy of its validation) answers, with `{n}` parameters.
 * A text no entry covers (a menu or label an admin wrote) shows as written.
 */
export interface Catalogues {
  terms: Readonly<Record<string, string>>
  messages: Readonly<Record<string, string>>
}

/** Simplified Chinese, the source language: every text is written in it (the spec's wording) and it needs no catalogue. */
export const SOURCE_LOCALE: Locale = 'zh-CN'

/**
 * One row per language. Adding a language is its catalogue (terms and messages, keyed by the Simplified
 * text) plus a row here; everything else (the language menu, personal settings, antd and dayjs, the
 * server's answers, labels in schemas/) derives from the table.
 */
export interface LocaleRow {
  code: Locale
  /** The key kept in personal settings (local storage `admin.settings`). */
  setting: string
  /** The language's name for itself, so a user can always find their own. */
  name: string
  /** Accept-Language tags (lower case) that choose it; the longest that prefixes the header's first tag wins. */
  accepts: readonly string[]
  /** Where a label of schemas/ (enumerations, entities) that lacks this language comes from, before Simplified. */
  fallback?: Locale
  /** antd's own texts (pagers, date pickers, empty tables); loaded with the language. */
  antd: () => Promise<{ default: AntdLocale }>
  /** dayjs's name of the language, and its loader. */
  dayjs: string
  loadDayjs: () => Promise<unknown>
  /** The language's catalogue; none for Simplified. */
  catalogue?: () => Promise<Catalogues>
}

/** A language's one catalogue file: `{ "terms": {…}, "messages": {…} }`. */
const catalogueOf = async (file: Promise<{ default: Catalogues }>): Promise<Catalogues> => (await file).default

const rows: LocaleRow[] = [
  {
    code: 'zh-CN',
    setting: 'CN',
    name: '简体中文', // i18n-ignore
    accepts: ['zh'],
    antd: () => import('antd/es/locale/zh_CN'),
    dayjs: 'zh-cn',
    loadDayjs: () => import('dayjs/locale/zh-cn'),
  },
  {
    code: 'zh-HK',
    setting: 'HK',
    name: '繁體中文', // i18n-ignore
    accepts: ['zh-hk', 'zh-tw', 'zh-mo', 'zh-hant'],
    antd: () => import('antd/es/locale/zh_HK'),
    dayjs: 'zh-hk',
    loadDayjs: () => import('dayjs/locale/zh-hk'),
    catalogue: () => catalogueOf(import('./zh-HK.json')),
  },
  {
    code: 'en-US',
    setting: 'US',
    name: 'English',
    accepts: ['en'],
    antd: () => import('antd/es/locale/en_US'),
    dayjs: 'en',
    loadDayjs: () => import('dayjs/locale/en'),
    catalogue: () => catalogueOf(import('./en-US.json')),
  },
]

/** Every language, in the order the language menu lists them. */
export const locales = (): readonly LocaleRow[] => rows

/**
 * Adds a language at start-up, before anything reads the table: the tests' hook for a language that
 * only lives in a fixture (production languages are rows above).
 */
export function registerLocale(row: LocaleRow): void {
  const at = rows.findIndex((r) => r.code === row.code)
  if (at >= 0) rows[at] = row
  else rows.push(row)
}

export const localeRow = (code: Locale): LocaleRow | undefined => rows.find((r) => r.code === code)

/** The locale kept in personal settings under `setting`; Simplified for one no row has (any more). */
export const localeOfSetting = (setting: string): Locale => rows.find((r) => r.setting === setting)?.code ?? SOURCE_LOCALE

/** The locale of an Accept-Language header: the row whose tag best prefixes the first language asked for; else Simplified. */
export function localeOfAcceptLanguage(header: string | undefined): Locale {
  const first = (header ?? '').split(',')[0]?.split(';')[0]?.trim().toLowerCase() ?? ''
  let best: { code: Locale; length: number } | undefined
  for (const row of rows) {
    for (const tag of row.accepts) {
      if ((first === tag || first.startsWith(`${tag}-`)) && tag.length > (best?.length ?? -1)) best = { code: row.code, length: tag.length }
    }
  }
  return best?.code ?? SOURCE_LOCALE
}

/**
 * A label of schemas/ (`{ "zh-CN": …, "en-US": … }`) in a language: its own text, else its row's
 * fallback language, else Simplified, so a new language needs no relabelling of every enumeration.
 */
export function labelIn(labels: Readonly<Record<string, unknown>>, locale: Locale): string {
  const text = (code: Locale | undefined) => (code && typeof labels[code] === 'string' && labels[code] ? (labels[code] as string) : undefined)
  return text(locale) ?? text(localeRow(locale)?.fallback) ?? (labels[SOURCE_LOCALE] as string)
}
