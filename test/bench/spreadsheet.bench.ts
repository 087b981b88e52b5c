/**
 * The online spreadsheet at scale (issue 15): a 10,000 × 25 sheet (BENCH_SHEET_ROWS × 25 cells of numbers
 * and short texts, a formula column, a filled and bordered header) on SQLite, against the real server
 * started as a child process (its RSS sampled from /proc/<pid>/status, so the bench's own memory never
 * counts):
 * - save (PUT /sw/excel/content, the whole book as the editor sends it), open (GET /sw/excel/content) and
 *   export (GET /sw/excel/export, exceljs on the server): time, payload size and server peak RSS;
 * - open in Chromium (when dist/ is built and /usr/bin/chromium or CHROME_PATH exists): from navigation to
 *   FortuneSheet's canvas showing the first cells of /online-excel?id=…
 * Prints figures and ratios to the targets (export ≤ 10 s, server peak ≤ 600 MB RSS); never fails on
 * time, but a failed call or a short export ends the bench with an error.
 * `npx tsx test/bench/run.ts spreadsheet`.
 */
import fs from 'node:fs'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { call, measureRss, ROOT, startServer, type ServerProcess } from './server-process.js'

const ROWS = Number(process.env.BENCH_SHEET_ROWS ?? 10_000)
const COLUMNS = 25
const EXPORT_TARGET_S = 10
const RSS_TARGET_MB = 600
const CHROME = process.env.CHROME_PATH || '/usr/bin/chromium'
const DIST = path.join(ROOT, 'dist')

/** The book as FortuneSheet's save sends it: sparse cells with value, display and type. */
function bigWorkbook(rows: number) {
  const celldata: { r: number; c: number; v: Record<string, unknown> }[] = []
  for (let c = 0; c < COLUMNS; c++) celldata.push({ r: 0, c, v: { v: `列${c + 1}`, m: `列${c + 1}`, ct: { fa: 'General', t: 'g' }, bg: '#ffff00', bl: 1 } })
  for (let r = 1; r < rows; r++)
    for (let c = 0; c < COLUMNS; c++) {
      if (c === COLUMNS - 1) celldata.push({ r, c, v: { v: r * 2, m: String(r * 2), f: `=A${r + 1}+B${r + 1}`, ct: { fa: 'General', t: 'n' } } })
      else if (c % 3 === 2) celldata.push({ r, c, v: { v: `文本${r}`, m: `文本${r}`, ct: { fa: 'General', t: 'g' } } })
      else celldata.push({ r, c, v: { v: r + c, m: String(r + c), ct: { fa: 'General', t: 'n' } } })
    }
  return {
    sheets: [
      {
        name: 'Sheet1',
        order: 0,
        status: 1,
        celldata,
        config: {
          merge: { '0_0': { r: 0, c: 0, rs: 1, cs: 2 } },
          borderInfo: [{ rangeType: 'range', borderType: 'border-all', style: '1', color: '#000000', range: [{ row: [0, 0], column: [0, COLUMNS - 1] }] }],
        },
      },
    ],
    info: { name: '压测' },
  }
}

const line = (what: string, m: { seconds: number; peak: number; before: number }, extra = '') =>
  console.log(`  ${what.padEnd(8)} ${m.seconds.toFixed(2).padStart(6)} s   server RSS ${m.before.toFixed(0)} -> peak ${m.peak.toFixed(0)} MB (${(m.peak / RSS_TARGET_MB).toFixed(2)} of ${RSS_TARGET_MB} MB)${extra}`)

async function browserOpen(s: ServerProcess, id: string): Promise<number | undefined> {
  if (!fs.existsSync(path.join(DIST, 'index.html')) || !fs.existsSync(CHROME)) {
    console.log('  browser  skipped (needs `npx vite build` and Chromium)')
    return undefined
  }
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath: CHROME, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] })
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    await context.addInitScript((token) => localStorage.setItem('X-Auth-Token', token), s.token)
    const page = await context.newPage()
    const t0 = performance.now()
    await page.goto(`${s.base}/online-excel?id=${id}`)
    await page.locator('.fortune-sheet-overlay .fortune-cell-area').waitFor({ state: 'visible', timeout: 120_000 })
    // The first screen of cells is drawn once the canvas has the data: the formula bar shows A1's text.
    await page.locator('.fortune-sheet-canvas').first().waitFor({ state: 'visible' })
    const seconds = (performance.now() - t0) / 1000
    const heap = await page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0)
    console.log(`  browser  ${seconds.toFixed(2).padStart(6)} s   navigation to the sheet drawn in Chromium (JS heap ${(heap / 1024 / 1024).toFixed(0)} MB)`)
    return seconds
  } finally {
    await browser.close()
  }
}

async function main() {
  console.log(`spreadsheet ${ROWS} x ${COLUMNS} (${ROWS * COLUMNS} cells) on SQLite`)
  const s = await startServer({ prefix: 'bench-sheet-', webRoot: fs.existsSync(path.join(DIST, 'index.html')) ? DIST : undefined })
  try {
    const id = await call<string>(s, 'POST', '/sw/excel', { name: '压测' })
    const content = JSON.stringify(bigWorkbook(ROWS))
    const mb = Buffer.byteLength(content) / 1024 / 1024
    const saved = await measureRss(s.child.pid!, () => call(s, 'PUT', '/sw/excel/content', { id, content }))
    line('save', saved, `   content ${mb.toFixed(1)} MB`)
    const opened = await measureRss(s.child.pid!, () => call<{ sheets: { celldata: unknown[] }[] }>(s, 'GET', `/sw/excel/content?id=${id}`))
    if (opened.result.sheets[0].celldata.length !== ROWS * COLUMNS) throw new Error(`open answered ${opened.result.sheets[0].celldata.length} cells`)
    line('open', opened)
    const exported = await measureRss(s.child.pid!, async () => {
      const r = await fetch(`${s.base}/cloud-api/sw/excel/export?id=${id}`, { headers: { 'x-auth-token': s.token } })
      if (!r.ok) throw new Error(`export: HTTP ${r.status}`)
      return Buffer.from(await r.arrayBuffer())
    })
    line('export', exported, `   xlsx ${(exported.result.length / 1024 / 1024).toFixed(1)} MB, ${(exported.seconds / EXPORT_TARGET_S).toFixed(2)} of ${EXPORT_TARGET_S} s`)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(exported.result as unknown as ArrayBuffer)
    const ws = book.worksheets[0]
    if (ws.rowCount !== ROWS || ws.getCell(ROWS, COLUMNS).formula !== `A${ROWS}+B${ROWS}`) throw new Error(`export has ${ws.rowCount} rows`)
    await browserOpen(s, id)
  } finally {
    await s.stop()
  }
}

await main()
