/**
 * `npm run bench`: every benchmark under test/bench, one after another (figures and ratios only).
 * `npm run bench -- bundle-size` runs only the benchmarks whose file name contains one of the words.
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
for (const file of files) {
  console.log(`\n=== ${file} ===`)
  spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { stdio: 'inherit' })
}
