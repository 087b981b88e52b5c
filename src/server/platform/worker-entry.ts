import { createRequire } from 'node:module'
import { Worker, type WorkerOptions } from 'node:worker_threads'

/**
 * A worker thread running a TypeScript entry the way the server runs (tsx), whatever started this
 * process (node --import tsx, vitest): `--import tsx` in a worker's execArgv is not honoured on Node 20,
 * so a tiny bootstrap registers tsx's loader inside the worker and then imports the entry.
 *
 *   const worker = startTsWorker(new URL('./sandbox-worker.ts', import.meta.url), { workerData })
 */
export function startTsWorker(entry: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  return new Worker(bootstrap(entry.href), { execArgv: [], ...options, eval: true })
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
