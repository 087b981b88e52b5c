/**
 * The screens most menus open (entity lists with their form dialog, document lists and pages) are split
 * into lazy chunks; the first menu a clerk opens after signing in would otherwise wait for them to download
 * and compile (~0.6 s on this machine). Once the shell has painted and the browser is idle, they are
 * loaded ahead; import() caches modules, so the lazy pages then resolve at once.
 */
const COMMON_PAGES = [
  () => import('../runtime/EntityPage.js'),
  () => import('../runtime/document/DocumentListPage.js'),
  () => import('../runtime/document/DocumentPage.js'),
]

let started = false

export function prefetchCommonPages(): void {
  if (started) return
  started = true
  const idle = (run: () => void) =>
    typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(run, { timeout: 3000 }) : window.setTimeout(run, 1000)
  // One chunk per idle period, so a click in between is never kept waiting behind all of them.
  const next = (i: number) => {
    if (i < COMMON_PAGES.length) idle(() => void COMMON_PAGES[i]().catch(() => undefined).finally(() => next(i + 1)))
  }
  next(0)
}
