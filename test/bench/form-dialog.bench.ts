/**
 * An entity form dialog's cost in the browser (issue 33: ≤ 150 ms of main-thread work): on each list, 新增 is
 * clicked, timed until the dialog's form is shown and settled, then closed; the first open of a session pays
 * for the form's code and styles, the later ones are what a clerk pays on every 新增. Main-thread work is
 * Chromium's own count of task time (CDP Performance.getMetrics TaskDuration) from the click to the settled
 * dialog. Figures only, never pass/fail.
 *
 * Starts the real server (fresh SQLite, no demo company) serving dist/ (run `npx vite build` first).
 * FORM_DIALOG_OPENS (default 6) opens per list; FORM_DIALOG_ONLY=/base-data/customer,/system/user picks lists.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import type { CDPSession, Page } from 'playwright-core'
import { ROOT, startServer } from './server-process.js'
import { signedInBrowser } from './signed-in-browser.js'

const LISTS = ['/base-data/customer', '/base-data/supplier', '/base-data/store-center', '/product/brand', '/system/user', '/system/dept']
const OPENS = Number(process.env.FORM_DIALOG_OPENS ?? 6)

const taskSeconds = async (cdp: CDPSession) =>
  ((await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] }).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0

/**
 * Waits until the page has painted three frames in a row on time (no task longer than a frame between
 * them): the dialog settled. A string, so the bundler's helpers never reach the page.
 */
const settled = (page: Page) =>
  page.evaluate(`new Promise((resolve) => {
    let quiet = 0
    let last = performance.now()
    requestAnimationFrame(function frame(t) {
      quiet = t - last < 34 ? quiet + 1 : 0
      last = t
      if (quiet >= 3) resolve(performance.now())
      else requestAnimationFrame(frame)
    })
  })`)

async function openOnce(page: Page, cdp: CDPSession, pane: ReturnType<Page['locator']>): Promise<{ shownMs: number; taskMs: number }> {
  const before = await taskSeconds(cdp)
  const t0 = await page.evaluate(() => performance.now())
  await pane.getByRole('button', { name: '新增', exact: true }).first().click()
  const dialog = page.locator('.ant-modal:visible').last()
  await dialog.locator('form input, form textarea, form .ant-select').first().waitFor({ state: 'visible', timeout: 15_000 })
  const shown = await page.evaluate(() => performance.now())
  await settled(page)
  const taskMs = ((await taskSeconds(cdp)) - before) * 1000
  await dialog.locator('.ant-modal-close').click()
  await dialog.waitFor({ state: 'hidden', timeout: 15_000 })
  return { shownMs: shown - t0, taskMs }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]

async function main() {
  const dist = path.join(ROOT, 'dist')
  if (!existsSync(path.join(dist, 'index.html'))) throw new Error('dist/index.html is missing: run `npx vite build` first')
  const server = await startServer({ prefix: 'erp-form-dialog-', webRoot: dist })
  const { browser, context } = await signedInBrowser(server.base)
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Performance.enable')
    const only = process.env.FORM_DIALOG_ONLY?.split(',').filter(Boolean)
    const rows: string[] = []
    const later: number[] = []
    for (const list of LISTS.filter((l) => !only || only.some((w) => l.includes(w)))) {
      await page.goto(`${server.base}${list}`)
      const pane = page.locator(`.shell-pane[data-page="${list}"]`)
      await pane.locator('.ant-table').first().waitFor({ timeout: 30_000 })
      await page.waitForLoadState('networkidle')
      const opens = []
      for (let i = 0; i < OPENS; i++) opens.push(await openOnce(page, cdp, pane))
      const [first, ...rest] = opens
      later.push(...rest.map((o) => o.taskMs))
      rows.push(
        `${list.padEnd(26)} first: shown ${first.shownMs.toFixed(0).padStart(5)} ms, main thread ${first.taskMs.toFixed(0).padStart(5)} ms;` +
          ` later (median of ${rest.length}): shown ${median(rest.map((o) => o.shownMs)).toFixed(0).padStart(4)} ms, main thread ${median(rest.map((o) => o.taskMs)).toFixed(0).padStart(4)} ms`,
      )
    }
    for (const r of rows) console.log(r)
    console.log(`\nentity form dialog, later opens: main thread median ${median(later).toFixed(0)} ms, max ${Math.max(...later).toFixed(0)} ms (target ≤ 150 ms)`)
  } finally {
    await browser.close()
    await server.stop()
  }
}

await main()
