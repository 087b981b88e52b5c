/** `npm run bench`: every benchmark under test/bench, one after another (figures and ratios only). */
import { readdirSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import path from 'node:path'

const dir = import.meta.dirname
for (const file of readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).sort()) {
  console.log(`\n=== ${file} ===`)
  spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { stdio: 'inherit' })
}
