/**
 * Import and export at scale (issue 14), on SQLite, against the real server started as a child process
 * (its RSS sampled from /proc/<pid>/status while the operation runs, so the bench's own memory never counts):
 * - import of 100,000 product rows from an .xlsx (BENCH_IMPORT_ROWS, default 100000), and of 1,000,000 when
 *   BENCH_IMPORT_1M=1 (it takes minutes: kept out of the routine run); targets 1,000,000 rows <= 60 s and
 *   <= 300 MB RSS;
 * - export of 1,000,000 rows (BENCH_EXPORT_ROWS) of the address list (it has the export call; its rows
 *   are put straight into the database, the export is what is measured), target <= 300 MB RSS.
 * The input workbooks are written into a temporary directory twice: with ExcelJS's streaming writer (inline
 * strings) and as LibreOffice Calc saves one (test/support/libreoffice-workbook.ts: every text a shared string split into
 * font runs, the spec and unit columns inline rich strings), so a writer the reader is slow with shows as a
 * ratio; BENCH_IMPORT_WRITERS=exceljs (or libreoffice) runs one of them. The time until the upload is
 * answered is printed apart: the import goes on as a task, so it must not grow with the file.
 * Prints time, rows/s, peak RSS and the ratio to the target; a failed import or a short export ends the
 * bench with an error. The idle server (tsx + the whole app) is already ~270 MB; V8 collects lazily, so
 * the peak also shows garbage not yet collected: `NODE_OPTIONS=--max-old-space-size=160` (inherited by
 * the server) shows what the operation really holds. BENCH_IMPORT_ROWS=0 runs the export alone.
 * Found by test/bench/run.ts like every *.bench.ts: `npx tsx test/bench/run.ts import-export`.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import ExcelJS from 'exceljs'
import { call, measureRss, startServer } from './server-process.js'
import { calcWorkbook, type CalcCell } from '../support/libreoffice-workbook.js'

const IMPORT_ROWS = [Number(process.env.BENCH_IMPORT_ROWS ?? 100_000), ...(process.env.BENCH_IMPORT_1M === '1' ? [1_000_000] : [])].filter((n) => n > 0)
const EXPORT_ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000)
const TIME_TARGET_S = 60
const WRITERS = (process.env.BENCH_IMPORT_WRITERS ?? 'exceljs,libreoffice').split(',').filter((w): w is Writer => w === 'exceljs' || w === 'libreoffice')
type Writer = 'exceljs' | 'libreoffice'

/** CPU seconds (user + system) the server process has used: a figure less swayed than wall time by other load on the machine. */
const cpuSeconds = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}
const RSS_TARGET_MB = 300

/** BENCH_CPU_PROF=<dir> writes the server's CPU profiles there. */
const server = () => startServer({ prefix: 'bench-import-', nodeArgs: process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [] })

const PRODUCT_HEADER = ['*编号', '*名称', '*SKU', '*类目编号', '*品牌编号', '*进项税率（%）', '*销项税率（%）', '采购价', '销售价', '规格', '单位']

/** The cells of product row `i` (1-based). */
function productRow(i: number): [string, string, string, string, string, string, string, number, number, string, string] {
  const code = `BP${String(i).padStart(7, '0')}`
  return [code, `商品${i}`, `SKU${code}`, 'BENCH-CAT', 'BENCH-BRAND', '17%', '6%', (i % 997) + 0.5, (i % 991) + 1.25, `规格${i % 17}`, '件']
}

async function productWorkbook(file: string, rows: number, writer: Writer) {
  if (writer === 'libreoffice') {
    function* cells(): Generator<CalcCell[]> {
      yield PRODUCT_HEADER
      for (let i = 1; i <= rows; i++) {
        const row: CalcCell[] = productRow(i)
        row[9] = { inline: row[9] as string }
        row[10] = { inline: row[10] as string }
        yield row
      }
    }
    fs.writeFileSync(file, await calcWorkbook('商品', cells()))
    return
  }
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: false, useSharedStrings: false })
  const sheet = book.addWorksheet('商品')
  sheet.addRow(PRODUCT_HEADER).commit()
  for (let i = 1; i <= rows; i++) sheet.addRow(productRow(i)).commit()
  sheet.commit()
  await book.commit()
}

/** Rows per second of each writer's file, for the ratio printed at the end. */
const paces = new Map<string, number>()

async function importBench(rows: number, writer: Writer) {
  const s = await server()
  try {
    await call(s, 'POST', '/basedata/product/category', { code: 'BENCH-CAT', name: '压测类目' })
    await call(s, 'POST', '/basedata/product/brand', { code: 'BENCH-BRAND', name: '压测品牌' })
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-xlsx-'))
    const file = path.join(dir, 'products.xlsx')
    const g0 = performance.now()
    await productWorkbook(file, rows, writer)
    const mb = fs.statSync(file).size / 1024 / 1024
    console.log(`  ${rows} rows, ${writer}: workbook ${mb.toFixed(1)} MB written in ${((performance.now() - g0) / 1000).toFixed(1)} s`)
    const t0 = performance.now()
    const cpu0 = cpuSeconds(s.child.pid!)
    let accepted = 0
    const { result: task, peak, hwm, before } = await measureRss(s.child.pid!, async () => {
      const form = new FormData()
      form.append('file', await fs.openAsBlob(file), 'products.xlsx')
      const up = (await (await fetch(`${s.base}/cloud-api/basedata/product/import`, { method: 'POST', headers: { 'x-auth-token': s.token }, body: form })).json()) as { code: number; msg: string; data: string }
      if (up.code !== 200) throw new Error(`upload refused: ${up.msg}`)
      accepted = (performance.now() - t0) / 1000
      for (;;) {
        const p = await call<{ finished: boolean; hasError: boolean; tipMsgs: string[]; process: number; data: { created: number } | null }>(s, 'GET', `/component/import/task?id=${up.data}`)
        if (p.finished) return p
        await new Promise((r) => setTimeout(r, 500))
      }
    })
    const seconds = (performance.now() - t0) / 1000
    const cpu = cpuSeconds(s.child.pid!) - cpu0
    fs.rmSync(dir, { recursive: true, force: true })
    if (task.hasError || task.data?.created !== rows) throw new Error(`import failed: ${JSON.stringify(task).slice(0, 500)}`)
    paces.set(`${rows} ${writer}`, rows / seconds)
    console.log(
      `  import ${rows} rows (${writer}): ${seconds.toFixed(1)} s (upload answered after ${accepted.toFixed(1)} s; server CPU ${cpu.toFixed(1)} s; load ${os.loadavg()[0].toFixed(1)}), ${Math.round(rows / seconds)} rows/s, ` +
        `peak RSS ${peak.toFixed(0)} MB (server before ${before.toFixed(0)} MB; high-water mark since start-up ${hwm.toFixed(0)} MB)`,
    )
    if (rows >= 1_000_000)
      console.log(`  ratio to target (1,000,000 rows <= ${TIME_TARGET_S} s, <= ${RSS_TARGET_MB} MB): time ${(seconds / TIME_TARGET_S).toFixed(2)}, RSS ${(peak / RSS_TARGET_MB).toFixed(2)}`)
    else
      console.log(`  ratio to target scaled to 1,000,000 rows: time ${((seconds * (1_000_000 / rows)) / TIME_TARGET_S).toFixed(2)} (linear), RSS ${(peak / RSS_TARGET_MB).toFixed(2)}`)
  } finally {
    await s.stop()
  }
}

/** The tenant database file holding `table` (SQLite keeps one file per tenant schema next to app.db). */
function databaseWith(dataDir: string, table: string): string {
  for (const f of fs.readdirSync(dataDir).filter((n) => n.endsWith('.db'))) {
    const db = new Database(path.join(dataDir, f), { readonly: true })
    const hit = db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(table)
    db.close()
    if (hit) return path.join(dataDir, f)
  }
  throw new Error(`no database holds ${table}`)
}

async function exportBench(rows: number) {
  const s = await server()
  try {
    const db = new Database(databaseWith(s.dataDir, 'base_data_address'))
    db.pragma('busy_timeout = 10000')
    const columns = (db.prepare('pragma table_info(base_data_address)').all() as { name: string }[]).map((c) => c.name)
    const value = (c: string, i: number): unknown => {
      switch (c) {
        case 'id': return `A${String(i).padStart(9, '0')}`
        case 'entity_type': return 1
        case 'entity_id': return 'bench-owner'
        case 'address_type': return 1 + (i % 2)
        case 'name': return `联系人${i}`
        case 'telephone': return `138${String(i).padStart(8, '0')}`
        case 'city_id': return '330106'
        case 'address': return `文三路${i}号`
        case 'is_default': return 0
        case 'available': return 1
        case 'create_time': case 'update_time': return `2024-01-01 00:${String(Math.floor(i / 60000) % 60).padStart(2, '0')}:${String(Math.floor(i / 1000) % 60).padStart(2, '0')}`
        default: return c.endsWith('_id') || c.endsWith('_by') ? 'bench' : null
      }
    }
    const insert = db.prepare(`insert into base_data_address (${columns.join(',')}) values (${columns.map(() => '?').join(',')})`)
    const s0 = performance.now()
    db.transaction(() => {
      for (let i = 1; i <= rows; i++) insert.run(...columns.map((c) => value(c, i)))
    })()
    db.close()
    console.log(`  ${rows} address rows seeded in ${((performance.now() - s0) / 1000).toFixed(1)} s`)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-export-'))
    const file = path.join(dir, 'export.xlsx')
    const t0 = performance.now()
    const { result: total, peak, hwm, before } = await measureRss(s.child.pid!, async () => {
      const r = await fetch(`${s.base}/cloud-api/basedata/address/export`, { method: 'POST', headers: { 'x-auth-token': s.token } })
      if (r.status !== 200 || !r.body) throw new Error(`export answered ${r.status}`)
      const out = fs.createWriteStream(file)
      for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) if (!out.write(chunk)) await new Promise<void>((res) => out.once('drain', () => res()))
      await new Promise((res) => out.end(res))
      return Number(r.headers.get('x-total-count'))
    })
    const seconds = (performance.now() - t0) / 1000
    // Count the rows back with the streaming reader (the bench's own memory is not measured).
    let count = 0
    for await (const sheet of new ExcelJS.stream.xlsx.WorkbookReader(file, { worksheets: 'emit', sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore' }))
      for await (const _row of sheet as unknown as AsyncIterable<unknown>) count++
    const mb = fs.statSync(file).size / 1024 / 1024
    fs.rmSync(dir, { recursive: true, force: true })
    if (total !== rows || count !== rows + 1) throw new Error(`export short: total ${total}, ${count - 1} rows in the file`)
    console.log(
      `  export ${rows} rows: ${seconds.toFixed(1)} s, ${Math.round(rows / seconds)} rows/s, ${mb.toFixed(1)} MB file, ` +
        `peak RSS ${peak.toFixed(0)} MB (server before ${before.toFixed(0)} MB; high-water mark since start-up ${hwm.toFixed(0)} MB); ratio to ${RSS_TARGET_MB} MB: ${(peak / RSS_TARGET_MB).toFixed(2)}`,
    )
  } finally {
    await s.stop()
  }
}

console.log('import-export on SQLite (server in a child process)')
for (const rows of IMPORT_ROWS) {
  for (const writer of WRITERS) await importBench(rows, writer)
  const exceljs = paces.get(`${rows} exceljs`)
  const calc = paces.get(`${rows} libreoffice`)
  if (exceljs && calc) console.log(`  ${rows} rows: pace of the LibreOffice file to the ExcelJS file ${(calc / exceljs).toFixed(2)}`)
}
if (EXPORT_ROWS > 0) await exportBench(EXPORT_ROWS)
