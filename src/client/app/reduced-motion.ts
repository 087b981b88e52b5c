import { useSyncExternalStore } from 'react'
import { REDUCED_MOTION_QUERY } from '../../shared/look/ui-constants.js'

/**
 * Whether the user asked their system for less motion (prefers-reduced-motion, WCAG 2.3.3): antd's
 * animations are then turned off (app/theme.ts) and pages are shown without their fade (styles.css).
 * A clerk who finds sliding dialogs and fading pages tiring, or works over a slow remote desktop, says so
 * once in the system and every screen follows, also when it changes while the app is open.
 */
const media = (): MediaQueryList | null => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(REDUCED_MOTION_QUERY) : null)

function subscribe(change: () => void): () => void {
  const list = media()
  list?.addEventListener('change', change)
  return () => list?.removeEventListener('change', change)
}

export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, () => media()?.matches ?? false)
}
