/**
 * User scripts on the server: a worker_threads pool (1 worker, started on first use) running the shared
 * QuickJS engine, with a wall-clock watchdog (see SandboxDispatcher). Used by the custom-form
 * prefix/suffix hooks, custom-page configs, list exports that need formatters, and later job scripts.
 *
 *   await runScript('(a, b) => a + b', [1, 2])                              // 3
 *   await runScript('return formData.qty > 10', [form, {}], { params: SCRIPT_PARAMS.submitHook })
 *   await runFormatter('return cellValue + "元"', [{ value: 3, row }])      // ['3元']
 *
 * Failures are ScriptError (kind timeout | memory | error | argument | unavailable) with the Chinese
 * message to show: 脚本执行超时 / 脚本内存超出限制 / 脚本执行错误：…
 */
import { startWorker } from '../platform/worker-entry.js'
import type { JSONValue } from '../../shared/sandbox/json-value.js'
import { SandboxClient, type RunOptions } from '../../shared/sandbox/sandbox-client.js'
import { WATCHDOG_GRACE_MS } from '../../shared/sandbox/sandbox-settings.js'
import { SandboxDispatcher, type SandboxDispatcherOptions } from '../../shared/sandbox/sandbox-dispatcher.js'
import type { ScriptEngineOptions } from '../../shared/sandbox/script-engine.js'
import type { FormatterCell } from '../../shared/sandbox/script-kinds.js'
import type { SandboxMessage } from '../../shared/sandbox/worker-protocol.js'

export interface ScriptPoolOptions extends SandboxDispatcherOptions {
  engine?: ScriptEngineOptions
}

const WORKER_URL = new URL('./sandbox-worker.ts', import.meta.url)

export function createScriptPool(options: ScriptPoolOptions = {}): SandboxClient {
  const dispatcher = new SandboxDispatcher((events) => {
    const worker = startWorker(WORKER_URL, {
      workerData: options.engine ?? {},
      // the QuickJS heap lives in wasm memory; this only bounds the host side of the worker
      resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 4 },
    })
    worker.unref()
    worker.on('message', (m: SandboxMessage) => events.message(m))
    worker.on('error', (e) => events.failure(e))
    worker.on('exit', (code) => events.failure(new Error(`worker exited with code ${code}`)))
    return {
      post: (request) => worker.postMessage(request),
      terminate: () => {
        worker.removeAllListeners('exit')
        void worker.terminate()
      },
    }
  }, { graceMs: WATCHDOG_GRACE_MS, ...options })
  return new SandboxClient(dispatcher)
}

let shared: SandboxClient | null = null

/** The process-wide pool (created lazily; its worker starts on the first script). */
export function scriptPool(): SandboxClient {
  shared ??= createScriptPool()
  return shared
}

export function runScript(source: string, args: readonly unknown[], options: RunOptions = {}): Promise<JSONValue> {
  return scriptPool().run(source, args, options)
}

/** A list formatter `(cellValue, row)` over many cells in batched crossings; one text per cell. */
export function runFormatter(source: string, cells: readonly FormatterCell[], options: Pick<RunOptions, 'timeoutMs'> = {}): Promise<string[]> {
  return scriptPool().formatCells(source, cells, options)
}

/** For app shutdown and tests: terminates the shared pool's workers. */
export function closeScriptPool(): void {
  shared?.dispatcher.close()
  shared = null
}
