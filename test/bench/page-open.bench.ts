/**
 * Time to first rows of every menu page, in Chromium, as a clerk opens them in the running shell: the
 * shell is loaded once, then each function menu of the seeded tree is clicked in the side menu (its
 * catalogs opened first, untimed) and timed from the click until its pane shows rows, an empty grid or its
 * form, with no spinner left; once with 2 tabs open and once with 15 (hidden tabs must cost nothing), then
 * F5 with 12 tabs open, to the visible tab's rows, with the requests the reload made. Prints every page
 * (slowest first) of the first pass, the slowest of the second, and p50 / p90 / max per pass (targets: p90
 * ≤ 300 ms, none over 600 ms, F5 ≤ 1.5 s). Figures only, never pass/fail. The shell runs in the side
 * layout, whose sider holds the whole menu tree: the mixed layout's header catalogs open a page of their
 * own when clicked, which would change the number of tabs open; a side-menu click is the same navigation in
 * both.
 *
 * Starts the real server on a free port with an empty DATA_DIR, serving dist/ (run `npx vite build`
 * first), the way test/e2e/global-setup.ts does; PAGE_OPEN_URL measures a server already running instead
 * (signed in as admin / admin123456, captcha off). Debian's chromium (CHROME_PATH to override).
 * PAGE_OPEN_ONLY=/system/menu,/notice opens only the pages whose path contains one of the words;
 * PAGE_OPEN_SHOTS=<dir> keeps a screenshot of every page that showed no rows in time.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { Page, Request } from 'playwright-core'
import { signedInBrowser } from './signed-in-browser.js'

const root = path.resolve(import.meta.dirname, '..', '..')
const READY_TIMEOUT_MS = 15_000

interface MenuNode {
  id: string
  path?: string | null
  display: number
  hidden?: boolean
  meta: { title: string }
  children?: MenuNode[]
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as net.AddressInfo).port
      probe.close(() => resolve(port))
    })
  })
}

async function startServer(): Promise<{ baseURL: string; stop: () => void }> {
  if (process.env.PAGE_OPEN_URL) return { baseURL: process.env.PAGE_OPEN_URL.replace(/\/+$/, ''), stop: () => undefined }
  if (!existsSync(path.join(root, 'dist', 'index.html'))) throw new Error('dist/index.html is missing: run `npx vite build` first')
  const port = await freePort()
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'erp-page-open-'))
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOGIN_CAPTCHA: 'off', WEB_ROOT: path.join(root, 'dist'), LOG_LEVEL: 'warn' }
  delete env.DATABASE_URL
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: root, env, stdio: 'ignore' })
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    rmSync(dataDir, { recursive: true, force: true })
  }
  process.once('exit', stop)
  const baseURL = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`)
    try {
      if ((await fetch(`${baseURL}/healthz`)).ok) return { baseURL, stop }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  stop()
  throw new Error('server not healthy after 120 s')
}

/** A function menu with the menu keys of the catalogs above it (shell/menu-items.ts: `menu-<id>`), top first. */
type MenuPage = { path: string; title: string; catalogs: string[] }

/** Every visible function menu with a plain path (no `:param`, no external link). */
function menuPages(tree: MenuNode[]): MenuPage[] {
  const out: MenuPage[] = []
  const walk = (nodes: MenuNode[], catalogs: string[]) => {
    for (const n of nodes) {
      if (n.hidden) continue
      if (n.display === 1 && n.path && !n.path.includes(':') && !/^https?:/i.test(n.path)) out.push({ path: n.path, title: n.meta.title, catalogs })
      if (n.children) walk(n.children, [...catalogs, `menu-${n.id}`])
    }
  }
  walk(tree, [])
  return out
}

type Timed = { path: string; title: string; ms: number | null }

const SIDE_MENU = '.ant-layout-sider .ant-menu'
/** antd's menu names each entry's element by its key at the end of `data-menu-id`. */
const entry = (key: string) => `${SIDE_MENU} [data-menu-id$="-${key}"]`

/**
 * Clicks the page's entry in the side menu, as a user does (its closed catalogs are opened first, untimed),
 * and answers the time from the click to its first rows. The click's own timestamp (the event's, taken
 * by the browser as it dispatches it) starts the clock.
 */
async function openAndWait(page: Page, to: MenuPage): Promise<number> {
  for (const catalog of to.catalogs) {
    const title = page.locator(entry(catalog))
    if ((await title.getAttribute('aria-expanded')) !== 'true') await title.click()
  }
  const item = page.locator(entry(to.path))
  await item.scrollIntoViewIfNeeded()
  await item.click()
  const clicked = await page.evaluate(() => (window as unknown as { lastMenuClick: number }).lastMenuClick)
  return (await waitForRows(page, to.path)) - clicked
}

/** The page's clock when the pane of `to` shows rows, an empty grid or its form, with no spinner left. */
async function waitForRows(page: Page, to: string): Promise<number> {
  const done = await page.waitForFunction(
    (p) => {
      const pane = document.querySelector(`.shell-pane[data-page="${p}"]`)
      if (!pane || !(pane as HTMLElement).offsetParent) return false
      if (pane.querySelector('.ant-spin-spinning, .ant-skeleton-active')) return false
      const table = pane.querySelector('.ant-table')
      const ready = table ? Boolean(pane.querySelector('.ant-table-row, .ant-empty, .ant-table-placeholder')) : Boolean(pane.querySelector('form, .ant-card, .ant-result, .ant-tree, canvas, .lowcode-host *'))
      return ready ? performance.now() : false
    },
    to,
    { timeout: READY_TIMEOUT_MS, polling: 'raf' },
  )
  return (await done.jsonValue()) as number
}

/** Closes the tab whose close button `selector` finds first (dispatched: the bar may have scrolled it out of view). */
const closeTab = (page: Page, selector: string) => page.evaluate((s) => document.querySelector(s)?.dispatchEvent(new MouseEvent('click', { bubbles: true })), selector)
const closeActiveTab = (page: Page) => closeTab(page, '.shell-tabs .ant-tabs-tab-active .ant-tabs-tab-remove')

/** The tabs open when F5 is timed. */
const F5_TABS = 12

/** The slowest pages printed of a pass that does not print every page. */
const SLOWEST = 8

/** The `shown` slowest pages (slowest first) and p50 / p90 / max of one pass. */
function report(label: string, results: Timed[], shown: number) {
  const timed = results.filter((r) => r.ms !== null).map((r) => r.ms as number).sort((a, b) => a - b)
  if (shown < results.length) console.log(`\n${label}, the ${shown} slowest:`)
  for (const r of [...results].sort((a, b) => (b.ms ?? Infinity) - (a.ms ?? Infinity)).slice(0, shown))
    console.log(`${r.ms === null ? ' timeout' : `${r.ms.toFixed(0).padStart(6)} ms`}  ${r.path}  ${r.title}`)
  const missed = results.length - timed.length
  const figures = timed.length ? `p50 ${quantile(timed, 0.5).toFixed(0)} ms, p90 ${quantile(timed, 0.9).toFixed(0)} ms, max ${timed[timed.length - 1].toFixed(0)} ms` : 'none'
  console.log(`\n${label}: ${results.length} pages, time to first rows ${figures}; over 600 ms: ${timed.filter((t) => t > 600).length}, over 1 s: ${timed.filter((t) => t > 1000).length}${missed ? `; ${missed} without rows within ${READY_TIMEOUT_MS / 1000} s` : ''}`)
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]

async function main() {
  const { baseURL, stop } = await startServer()
  try {
    const { token } = ((await (
      await fetch(`${baseURL}/cloud-api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin123456' }) })
    ).json()) as { data: { token: string } }).data
    const menus = (await (await fetch(`${baseURL}/cloud-api/auth/menus`, { headers: { 'X-Auth-Token': token } })).json()) as { data: MenuNode[] }
    const only = process.env.PAGE_OPEN_ONLY?.split(',').filter(Boolean)
    const pages = menuPages(menus.data).filter((p) => !only || only.some((word) => p.path.includes(word)))
    const { browser, context } = await signedInBrowser(baseURL)
    // The side layout (see above), and the time of every click, which starts the clock of a menu click.
    await context.addInitScript(() => {
      localStorage.setItem('admin.settings', JSON.stringify({ layout: 'side' }))
      document.addEventListener('click', (e) => Object.assign(window, { lastMenuClick: e.timeStamp }), true)
    })
    const page = await context.newPage()
    const shellStart = Date.now()
    await page.goto(`${baseURL}/`)
    await page.locator('.shell-pane').first().waitFor({ timeout: 30_000 })
    const shellShown = Date.now() - shellStart
    // A clerk's first click comes after the shell has settled (its idle prefetch of the common screens included).
    await page.waitForLoadState('networkidle')
    console.log(`shell (workplace) shown: ${shellShown} ms, settled: ${Date.now() - shellStart} ms; ${pages.length} menu pages`)

    // With 2 tabs (the workplace and the page) and with 15 (13 more kept open behind): each page is clicked
    // in the side menu, timed to its first rows, then closed again so the next one is a first open too.
    const kept = pages.slice(0, 13)
    const passes: [string, MenuPage[]][] = [['2 tabs', []], ['15 tabs', kept]]
    for (const [label, background] of passes) {
      for (const p of background) await openAndWait(page, p).catch(() => null)
      const measured = pages.filter((p) => !background.includes(p))
      const results: Timed[] = []
      for (const p of measured) {
        let ms: number | null = null
        try {
          ms = await openAndWait(page, p)
        } catch {
          // What the pane showed instead of rows: PAGE_OPEN_SHOTS=<dir> keeps a screenshot of each timeout.
          if (process.env.PAGE_OPEN_SHOTS) await page.screenshot({ path: path.join(process.env.PAGE_OPEN_SHOTS, `${p.path.replace(/\W+/g, '_')}.png`) })
        }
        results.push({ ...p, ms })
        await closeActiveTab(page)
      }
      report(label, results, label === '2 tabs' ? results.length : SLOWEST)
      if (label === '15 tabs') {
        // F5 with 12 of the tabs open (the workplace and 11 kept): the browser reloads the app; the tabs come
        // back and the visible one shows rows. The requests counted are those the reload made until then.
        const visible = kept[kept.length - 1]
        await openAndWait(page, visible).catch(() => null)
        while ((await page.locator('.shell-tab-label').count()) > F5_TABS) await closeTab(page, '.shell-tabs .ant-tabs-tab:not(.ant-tabs-tab-active) .ant-tabs-tab-remove')
        const reloads: { ms: number; requests: number; calls: number }[] = []
        for (let i = 0; i < 3; i++) {
          const urls: string[] = []
          const count = (request: Request) => urls.push(new URL(request.url()).pathname)
          page.on('request', count)
          const t0 = Date.now()
          await page.reload()
          await waitForRows(page, visible.path)
          reloads.push({ ms: Date.now() - t0, requests: urls.length, calls: urls.filter((u) => u.startsWith('/cloud-api/')).length })
          page.off('request', count)
        }
        const tabs = await page.locator('.shell-tab-label').count()
        const median = [...reloads].sort((a, b) => a.ms - b.ms)[1]
        console.log(
          `F5 with ${tabs} tabs open, to the visible tab's first rows: ${reloads.map((r) => `${r.ms} ms`).join(', ')} (median ${median.ms} ms); requests ${reloads.map((r) => `${r.requests} (${r.calls} API calls)`).join(', ')}`,
        )
      }
    }
    await browser.close()
  } finally {
    stop()
  }
}

await main()
