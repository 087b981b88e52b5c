import { preload } from 'swr'
import { META_KEY, readMetaBundle } from '../api/meta.js'
import { menusKey, readMenus } from '../app/menus.js'

/**
 * A signed-in start (a reload, a link): the two reads every screen waits for, the metadata and the menus,
 * start while the shell's chunk still downloads, under the keys the shell reads them by, so the shell finds
 * them answered or on their way instead of asking only once it has mounted. A failure (an expired token) is
 * the shell's to show when it reads the same key; here it is only kept from being an unhandled rejection.
 */
export function startBootReads(token: string): void {
  preload(META_KEY, readMetaBundle).catch(() => undefined)
  preload(menusKey(token), readMenus).catch(() => undefined)
}
