#!/usr/bin/env node
// The server compiled for running (npm start, the e2e server, the benches): one ES module bundle of
// src/server/main.ts and one per worker-thread entry, flat in dist-server/, packages left to
// node_modules. Node then runs plain JavaScript: no TypeScript loader in the process or its workers,
// ~50 MB less resident memory and faster start-up than `node --import tsx` (tests still run the
// sources through vitest and tsx).
import path from 'node:path'
import { build } from 'esbuild'

const root = path.resolve(import.meta.dirname, '..')
/** Worker entries are found by name next to the bundle (src/server/platform/worker-entry.ts). */
const entryPoints = {
  main: 'src/server/main.ts',
  'sandbox-worker': 'src/server/sandbox/sandbox-worker.ts',
  'sheet-reader-worker': 'src/server/engine/import/sheet-reader-worker.ts',
  'pdf-worker': 'src/server/modules/print/pdf-worker.ts',
}

const started = Date.now()
await build({
  absWorkingDir: root,
  entryPoints,
  outdir: 'dist-server',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
})
console.log(`server built into dist-server/ in ${Date.now() - started} ms`)
