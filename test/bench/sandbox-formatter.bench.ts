/**
 * 10,000 list-formatter calls `(cellValue, row)`: natively (a plain JS function, what the ancestor's
 * `new Function` did), through the QuickJS engine one call per cell, through the engine as one batch
 * (JSON in, map inside QuickJS, JSON out), and through the server's worker-thread pool (host-side JSON
 * check + postMessage + batch). Prints calls/s and the ratios to native; never pass/fail.
 *
 * Every engine call is a run of its own (a fresh QuickJS runtime + context + prelude, so no state
 * survives), so "one call per cell" is timed over PER_CALL_SAMPLE calls and scaled to CELLS; the cost
 * of one run's environment is printed on its own.
 */
import { ScriptEngine } from '../../src/shared/sandbox/script-engine.js'
import { toJSONText } from '../../src/shared/sandbox/json-value.js'
import { createScriptPool } from '../../src/server/sandbox/script-sandbox.js'

const CELLS = Number(process.env.BENCH_CELLS ?? 10_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 15)
const PER_CALL_SAMPLE = Math.min(CELLS, Number(process.env.BENCH_PER_CALL_SAMPLE ?? 300))

const SOURCE = '(cellValue, row) => row.available ? row.code + " " + formatNumber(cellValue, 2) : "停用"'
const native = (cellValue: number, row: { code: string; available: boolean }) =>
  row.available ? row.code + ' ' + formatNumber(cellValue, 2) : '停用'
function formatNumber(value: number, decimals: number): string {
  const parts = Number(value).toFixed(decimals).split('.')
  parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return parts.join('.')
}

const rows = Array.from({ length: CELLS }, (_, i) => ({
  id: String(i).padStart(32, '0'),
  code: `P${String(i).padStart(7, '0')}`,
  name: `商品${i}`,
  amount: i * 1.25,
  available: i % 10 !== 0,
  createTime: '2026-01-01 00:00:00',
}))
const argsList = rows.map((row) => [row.amount, row] as const)

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
async function time(fn: () => unknown): Promise<number> {
  for (let i = 0; i < 3; i++) await fn()
  const samples: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now()
    await fn()
    samples.push(performance.now() - t0)
  }
  return median(samples)
}

const engine = await ScriptEngine.create()
const id = engine.compile(SOURCE)
const pool = createScriptPool()
await pool.run('() => 1', [])

const expected = argsList.map(([v, row]) => native(v, row))
const check = (out: unknown[]) => {
  if (out.length !== CELLS || out.some((x, i) => x !== expected[i])) throw new Error('wrong formatter output')
}
check(engine.callMany(id, argsList))
check(await pool.formatCells(SOURCE, rows.map((row) => ({ value: row.amount, row }))))

const results: [string, number][] = [
  ['native JS function', await time(() => argsList.map(([v, row]) => native(v, row)))],
  [
    `QuickJS, one call (run) per cell, ${PER_CALL_SAMPLE} scaled`,
    ((await time(() => argsList.slice(0, PER_CALL_SAMPLE).map((args) => engine.call(id, args)))) * CELLS) / PER_CALL_SAMPLE,
  ],
  ['QuickJS, one batch (callMany)', await time(() => engine.callMany(id, argsList))],
  ['  of which host JSON check + stringify', await time(() => toJSONText(argsList))],
  ['worker pool formatCells (5 crossings, rows projected)', await time(() => pool.formatCells(SOURCE, rows.map((row) => ({ value: row.amount, row }))))],
  ['worker pool runMany (1 crossing, 5 s deadline)', await time(() => pool.runMany(SOURCE, argsList, { timeoutMs: 5000 }))],
]

const nativeMs = results[0][1]
console.log(`${CELLS.toLocaleString('en')} formatter calls, median of ${RUNS} runs`)
for (const [name, ms] of results) {
  const rate = Math.round((CELLS / ms) * 1000).toLocaleString('en')
  console.log(`${name.padEnd(48)} ${ms.toFixed(2).padStart(9)} ms  ${rate.padStart(13)} calls/s  ×${(ms / nativeMs).toFixed(1)} native`)
}
const oneRun = await time(() => engine.evaluate('() => 1', []))
console.log(`one run of a trivial script (fresh runtime + context + prelude, compile, call, free): ${oneRun.toFixed(2)} ms`)
engine.dispose()
pool.dispatcher.close()
