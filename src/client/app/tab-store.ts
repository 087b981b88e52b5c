import { useSyncExternalStore } from 'react'
import { term } from '../i18n/term.js'

export const WORKPLACE_PATH = '/dashboard/workplace'
export const WORKPLACE_TITLE = term('工作台')
/**
 * Open tabs survive a reload of the browser tab (000 §2), not a new browser tab: session storage. It
 * is written on every change, so whenever the user leaves (reload, close, another site) it is saved.
 */
export const TABS_KEY = 'admin.tabs'

export interface PageTab {
  /** The pathname; one tab per page. */
  key: string
  /** Pathname plus query, what the tab navigates to. */
  fullPath: string
  title: string
  menuId?: string
  /** Incremented by 刷新 to remount the page. */
  version: number
  /** 刷新 in progress: the pane shows a spinner for this many ms from when it is on screen, then the page remounts. */
  refreshing?: number
}

/** 001 §9: the refresh spinner shows 200 ms, 500 ms when the refreshed tab was not the active one. */
export const REFRESH_SPIN_MS = 200
export const REFRESH_SPIN_INACTIVE_MS = 500

const workplace: PageTab = { key: WORKPLACE_PATH, fullPath: WORKPLACE_PATH, title: WORKPLACE_TITLE, version: 0 }

function isTab(v: unknown): v is PageTab {
  if (!v || typeof v !== 'object') return false
  const t = v as Record<string, unknown>
  return typeof t.key === 'string' && typeof t.fullPath === 'string' && typeof t.title === 'string'
}

function normalise(list: PageTab[]): PageTab[] {
  const rest = list.filter((t) => t.key !== WORKPLACE_PATH)
  const own = list.find((t) => t.key === WORKPLACE_PATH)
  return [own ?? workplace, ...rest]
}

function read(): PageTab[] {
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(TABS_KEY) ?? '[]')
    const list = Array.isArray(raw) ? raw.filter(isTab).map(({ key, fullPath, title, menuId }) => ({ key, fullPath, title, menuId, version: 0 })) : []
    return normalise(list)
  } catch {
    return [workplace]
  }
}

let tabs = read()
const listeners = new Set<() => void>()

function commit(next: PageTab[]): void {
  tabs = normalise(next)
  sessionStorage.setItem(TABS_KEY, JSON.stringify(tabs.map(({ key, fullPath, title, menuId }) => ({ key, fullPath, title, menuId }))))
  for (const l of listeners) l()
}

export function useTabs(): PageTab[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => tabs,
  )
}

export function getTabs(): PageTab[] {
  return tabs
}

export const isClosable = (key: string) => key !== WORKPLACE_PATH

/** Adds the tab, or updates its query and title when it is already open. */
export function openTab(tab: Omit<PageTab, 'version'>): void {
  const existing = tabs.find((t) => t.key === tab.key)
  if (existing) {
    if (existing.fullPath === tab.fullPath && existing.title === tab.title && existing.menuId === tab.menuId) return
    commit(tabs.map((t) => (t.key === tab.key ? { ...t, ...tab } : t)))
    return
  }
  commit([...tabs, { ...tab, version: 0 }])
}

/** Closes one tab; answers the tab to show next when the closed one was active. */
export function closeTab(key: string): PageTab | undefined {
  const index = tabs.findIndex((t) => t.key === key)
  if (index < 0 || !isClosable(key)) return undefined
  const next = tabs.filter((t) => t.key !== key)
  commit(next)
  return next[Math.min(index, next.length - 1)] ?? next[index - 1]
}

export function closeLeft(key: string): void {
  const index = tabs.findIndex((t) => t.key === key)
  commit(tabs.filter((t, i) => i >= index || !isClosable(t.key)))
}

export function closeRight(key: string): void {
  const index = tabs.findIndex((t) => t.key === key)
  commit(tabs.filter((t, i) => i <= index || !isClosable(t.key)))
}

export function closeOthers(key: string): void {
  commit(tabs.filter((t) => t.key === key || !isClosable(t.key)))
}

/**
 * 刷新: a spinner for `spinMs`, then the page mounts afresh (its state and data are loaded again). The pane counts
 * the time from when the spinner is on screen (shell/TabPanes.tsx), so a busy page still shows it that long.
 */
export function refreshTab(key: string, spinMs: number = REFRESH_SPIN_MS): void {
  commit(tabs.map((t) => (t.key === key ? { ...t, refreshing: spinMs } : t)))
}

/** The spinner of 刷新 has been shown its time: the page mounts afresh. */
export function refreshed(key: string): void {
  commit(tabs.map((t) => (t.key === key && t.refreshing !== undefined ? { ...t, version: t.version + 1, refreshing: undefined } : t)))
}

/**
 * Navigation state of a link that opens a page afresh (新增): an open tab of that page is mounted again
 * instead of shown as it was left (shell/ShellLayout).
 */
export const FRESH_OPENING = { freshOpening: true } as const

export const isFreshOpening = (state: unknown): boolean => Boolean(state && typeof state === 'object' && (state as { freshOpening?: unknown }).freshOpening === true)

/** Signing out forgets the tabs so the next account starts on the workplace. */
export function clearTabs(): void {
  commit([])
}
