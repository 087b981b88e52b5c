import { useSyncExternalStore } from 'react'
import { localeOfSetting, locales, type Locale } from '../../shared/i18n/locales.js'
import { setCurrentLocale } from '../i18n/current-locale.js'

export type LayoutMode = 'side' | 'head' | 'mixed'
/** light: light everything; dark: antd dark algorithm; night: dark algorithm with dimmer, low-glare colours. */
export type ThemeMode = 'light' | 'dark' | 'night'
/** A language's key in the settings (the `setting` of its row in shared/i18n/locales.ts: CN, HK, US). */
export type Language = string

export interface AppSettings {
  layout: LayoutMode
  theme: ThemeMode
  language: Language
  /** Multi-page tabs stay on top while the page scrolls. */
  tabsLocked: boolean
}

/** Personal settings live in local storage (not server-side), per browser. */
export const SETTINGS_KEY = 'admin.settings'

// 001 §9: mixed layout and light theme are the defaults.
export const DEFAULT_SETTINGS: AppSettings = { layout: 'mixed', theme: 'light', language: 'CN', tabsLocked: false }

const LAYOUTS: readonly LayoutMode[] = ['side', 'head', 'mixed']
const THEMES: readonly ThemeMode[] = ['light', 'dark', 'night']

function pick<T>(allowed: readonly T[], value: unknown, fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback
}

function read(): AppSettings {
  let raw: Record<string, unknown> = {}
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}')
    if (parsed && typeof parsed === 'object') raw = parsed as Record<string, unknown>
  } catch {
    raw = {}
  }
  return {
    layout: pick(LAYOUTS, raw.layout, DEFAULT_SETTINGS.layout),
    theme: pick(THEMES, raw.theme, DEFAULT_SETTINGS.theme),
    language: pick(locales().map((l) => l.setting), raw.language, DEFAULT_SETTINGS.language),
    tabsLocked: raw.tabsLocked === true,
  }
}

let current = read()
setCurrentLocale(localeOf(current.language))
const listeners = new Set<() => void>()

export function updateSettings(patch: Partial<AppSettings>): void {
  current = { ...current, ...patch }
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(current))
  setCurrentLocale(localeOf(current.language))
  for (const l of listeners) l()
}

export function resetSettings(): void {
  updateSettings(DEFAULT_SETTINGS)
}

export function getSettings(): AppSettings {
  return current
}

export function useSettings(): AppSettings {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => current,
  )
}

/** The locale code used by catalogues and labels (`zh-CN`, `zh-HK`, `en-US`, …). */
export function localeOf(language: Language): Locale {
  return localeOfSetting(language)
}
