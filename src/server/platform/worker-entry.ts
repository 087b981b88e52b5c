import path from 'node:path'
import { createRequire } from 'node:module'
import { Worker, type WorkerOptions } from 'node:worker_threads'

/**
 * A worker thread running one of the server's worker entries, the way the server itself runs:
 * - compiled (dist-server/, scripts/build-server.mjs): the entry's own bundle beside the server's,
 *   under the source file's name (`sandbox-worker.ts` → `sandbox-worker.mjs`);
 * - from the sources (tests, `npm run dev`): the TypeScript file through tsx. `--import tsx` in a
 *   worker's execArgv is not honoured on Node 20, so a tiny bootstrap registers tsx's loader inside the
 *   worker and then imports the entry.
 *
 *   const worker = startWorker(new URL('./sandbox-worker.ts', import.meta.url), { workerData })
 */
export function startWorker(source: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${path.basename(source.pathname, '.ts')}.mjs`, import.meta.url), options)
  return new Worker(bootstrap(source.href), { execArgv: [], ...options, eval: true })
}

/** tsx's ESM API: require.resolve gives the CommonJS twin (dist/esm/api/index.cjs), the worker needs the ESM one. */
function tsxEsmApi(): string {
  return createRequire(import.meta.url).resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')
}

const bootstrap = (entry: string) => `
const { pathToFileURL } = require('node:url')
import(pathToFileURL(${JSON.stringify(tsxEsmApi())}).href)
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}) })
  .catch((e) => { throw e })
`
