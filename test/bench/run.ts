/**
 * `npm run bench`: every benchmark under test/bench, one after another (figures and ratios only).
 * `npm run bench -- bundle-size` runs only the benchmarks whose file name contains one of the words.
 * Timings never fail the run, but a benchmark that crashes (non-zero exit, a signal) does: the others still
 * run, and the exit code is 1 with the crashed ones named.
 */
import { readdirSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import path from 'node:path'

const dir = import.meta.dirname
const only = process.argv.slice(2)
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((word) => f.includes(word)))
  .sort()
const crashed: string[] = []
if (files.length === 0) crashed.push(`no benchmark matches ${only.join(', ')}`)
for (const file of files) {
  console.log(`\n=== ${file} ===`)
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { stdio: 'inherit' })
  if (result.error || result.status !== 0) {
    const why = result.error?.message ?? (result.signal ? `signal ${result.signal}` : `exit code ${result.status}`)
    console.error(`\n=== ${file} crashed (${why}) ===`)
    crashed.push(`${file} (${why})`)
  }
}
if (crashed.length) {
  console.error(`\n${crashed.length} benchmark(s) crashed or missing: ${crashed.join(', ')}`)
  // Set the code instead of ending at once, so the output above is flushed first.
  process.exitCode = 1
}
