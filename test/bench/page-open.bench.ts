/**
 * Time to first rows of every menu page, in Chromium, as a clerk opens them in the running shell: the
 * shell is loaded once, then each function menu of the seeded tree is opened by its address in the page
 * (as a menu click does) and timed until its pane shows rows, an empty grid or its form, with no spinner
 * left; once with 2 tabs open and once with 15 (hidden tabs must cost nothing), then F5 with 12 tabs open,
 * to the visible tab's rows. Prints every page (slowest first) and p50 / p90 / max per pass (targets: p90 ≤
 * 300 ms, none over 600 ms, F5 ≤ 1.5 s). Figures only, never pass/fail.
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
import type { Page } from 'playwright-core'
import { signedInBrowser } from './signed-in-browser.js'

const root = path.resolve(import.meta.dirname, '..', '..')
const READY_TIMEOUT_MS = 15_000

interface MenuNode {
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

/** Every visible function menu with a plain path (no `:param`, no external link). */
function menuPages(tree: MenuNode[]): { path: string; title: string }[] {
  const out: { path: string; title: string }[] = []
  const walk = (nodes: MenuNode[]) => {
    for (const n of nodes) {
      if (n.hidden) continue
      if (n.display === 1 && n.path && !n.path.includes(':') && !/^https?:/i.test(n.path)) out.push({ path: n.path, title: n.meta.title })
      if (n.children) walk(n.children)
    }
  }
  walk(tree)
  return out
}

type Timed = { path: string; title: string; ms: number | null }

/** Opens a path inside the running shell (as the router's links do) and waits for its first rows. */
async function openAndWait(page: Page, to: string): Promise<number> {
  const started = await page.evaluate((p) => {
    const t = performance.now()
    window.history.pushState({}, '', p)
    window.dispatchEvent(new PopStateEvent('popstate', { state: {} }))
    return t
  }, to)
  return (await waitForRows(page, to)) - started
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

const closeActiveTab = (page: Page) =>
  page.evaluate(() => document.querySelector('.shell-tabs .ant-tabs-tab-active .ant-tabs-tab-remove')?.dispatchEvent(new MouseEvent('click', { bubbles: true })))

/** Every page (slowest first, only with `all`) and p50 / p90 / max of one pass. */
function report(label: string, results: Timed[], all: boolean) {
  const timed = results.filter((r) => r.ms !== null).map((r) => r.ms as number).sort((a, b) => a - b)
  if (all)
    for (const r of [...results].sort((a, b) => (b.ms ?? Infinity) - (a.ms ?? Infinity)))
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
    const page = await context.newPage()
    const shellStart = Date.now()
    await page.goto(`${baseURL}/`)
    await page.locator('.shell-pane').first().waitFor({ timeout: 30_000 })
    const shellShown = Date.now() - shellStart
    // A clerk's first click comes after the shell has settled (its idle prefetch of the common screens included).
    await page.waitForLoadState('networkidle')
    console.log(`shell (workplace) shown: ${shellShown} ms, settled: ${Date.now() - shellStart} ms; ${pages.length} menu pages`)

    // With 2 tabs (the workplace and the page) and with 15 (13 more kept open behind): each page is opened as
    // the side menu's click does (a router navigation inside the running shell), timed to its first rows,
    // then closed again so the next one is a first open too.
    const kept = pages.slice(0, 13)
    const passes: [string, { path: string; title: string }[]][] = [['2 tabs', []], ['15 tabs', kept]]
    for (const [label, background] of passes) {
      for (const p of background) await openAndWait(page, p.path).catch(() => null)
      const measured = pages.filter((p) => !background.includes(p))
      const results: Timed[] = []
      for (const p of measured) {
        let ms: number | null = null
        try {
          ms = await openAndWait(page, p.path)
        } catch {
          // What the pane showed instead of rows: PAGE_OPEN_SHOTS=<dir> keeps a screenshot of each timeout.
          if (process.env.PAGE_OPEN_SHOTS) await page.screenshot({ path: path.join(process.env.PAGE_OPEN_SHOTS, `${p.path.replace(/\W+/g, '_')}.png`) })
        }
        results.push({ ...p, ms })
        await closeActiveTab(page)
      }
      report(label, results, label === '2 tabs')
      if (label === '15 tabs') {
        // F5 with the workplace and the 13 kept tabs open: the browser reloads the app; the tabs come back and
        // the visible one shows rows.
        const visible = kept[kept.length - 1]
        await openAndWait(page, visible.path).catch(() => null)
        const reloads: number[] = []
        for (let i = 0; i < 3; i++) {
          const t0 = Date.now()
          await page.reload()
          await waitForRows(page, visible.path)
          reloads.push(Date.now() - t0)
        }
        const tabs = await page.locator('.shell-tab-label').count()
        console.log(`F5 with ${tabs} tabs open, to the visible tab's first rows: ${reloads.map((r) => `${r} ms`).join(', ')} (median ${reloads.sort((a, b) => a - b)[1]} ms)`)
      }
    }
    await browser.close()
  } finally {
    stop()
  }
}

await main()
