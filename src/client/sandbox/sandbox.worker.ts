/// <reference lib="webworker" />
/**
 * The browser's sandbox Web Worker. It enforces its own deadline exactly as the server's pool does: it
 * runs QuickJS in a nested engine worker (sandbox-engine.worker.ts) behind the same SandboxDispatcher
 * and watchdog as the server's worker_threads pool, so a request is answered (脚本执行超时 at the latest
 * `deadline + WATCHDOG_GRACE_MS`) even when the engine's thread cannot stop the script itself; the engine
 * thread is then terminated and replaced. It speaks worker-protocol.ts to whoever created it.
 */
import { SandboxDispatcher } from '../../shared/sandbox/sandbox-dispatcher.js'
import { ScriptError, toScriptErrorData } from '../../shared/sandbox/script-error.js'
import { WATCHDOG_GRACE_MS } from '../../shared/sandbox/sandbox-settings.js'
import type { SandboxMessage, SandboxRequest } from '../../shared/sandbox/worker-protocol.js'

const scope = self as unknown as DedicatedWorkerGlobalScope
const send = (message: SandboxMessage) => scope.postMessage(message)

const engine = new SandboxDispatcher(
  (events) => {
    const worker = new Worker(new URL('./sandbox-engine.worker.ts', import.meta.url), { type: 'module', name: 'script-sandbox-engine' })
    worker.onmessage = (e: MessageEvent<SandboxMessage>) => events.message(e.data)
    worker.onerror = (e) => events.failure(new Error(e.message || 'sandbox-engine.worker did not load'))
    return { post: (request) => worker.postMessage(request), terminate: () => worker.terminate() }
  },
  { graceMs: WATCHDOG_GRACE_MS },
)

scope.onmessage = (event: MessageEvent<SandboxRequest>) => {
  const { id, op, source, params, argsJson, timeoutMs } = event.data
  engine.request(op, source, params, argsJson, timeoutMs).then(
    (resultJson) => send({ id, ok: true, resultJson }),
    (e: unknown) => send({ id, ok: false, error: toScriptErrorData(e instanceof ScriptError ? e : ScriptError.failed(e instanceof Error ? e.message : String(e))) }),
  )
}
send({ id: 0, ready: true })
