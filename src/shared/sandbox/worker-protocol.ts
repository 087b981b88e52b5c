/**
 * The request/response protocol between a host (server pool, browser client) and a sandbox worker
 * (worker_threads or Web Worker), and the worker side of it. Arguments are serialised and checked on
 * the HOST side (`toJSONText`), travel as one string, go into QuickJS as that string, and the result
 * comes back as a string the host parses: no structured clone of user data anywhere.
 */
import { ScriptEngine, type ScriptEngineOptions } from './script-engine.js'
import { ScriptError, toScriptErrorData, type ScriptErrorData } from './script-error.js'

/** `compile` only checks that the script compiles (a save-time check); it runs nothing of it. */
export type SandboxOp = 'call' | 'callMany' | 'settleMany' | 'compile'

export interface SandboxRequest {
  id: number
  op: SandboxOp
  /** the script; the worker compiles it once and caches it by source */
  source: string
  /** parameter names when the source is a function body (see CompileOptions.params) */
  params: readonly string[]
  /** `call`: a JSON array of arguments; the batch ops: a JSON array of such arrays */
  argsJson: string
  timeoutMs?: number
}

export type SandboxResponse =
  | { id: number; ok: true; resultJson: string }
  | {
      id: number
      ok: false
      error: ScriptErrorData
      /** the engine is gone (wasm abort): the host must terminate and replace this worker */
      restart?: boolean
    }

/** What a worker's first message says, so the host knows its engine is ready (or not). */
export type SandboxHello = { id: 0; ready: true } | { id: 0; ready: false; message: string }

export type SandboxMessage = SandboxResponse | SandboxHello

/**
 * The worker side: boots one engine, then answers requests one at a time, each in a fresh QuickJS
 * runtime (see ScriptEngine); the next one is booted while the worker waits for work.
 */
export function createSandboxHandler(options: ScriptEngineOptions = {}) {
  const enginePromise = ScriptEngine.create(options)
  return {
    ready: enginePromise.then(() => undefined),
    /** boots the next run's runtime ahead of time (after an answer has been sent) */
    prepare(): void {
      void enginePromise.then((engine) => engine.prepare(), () => undefined)
    },
    async handle(request: SandboxRequest): Promise<SandboxResponse> {
      const engine = await enginePromise
      try {
        if (request.op === 'compile') {
          engine.compile(request.source, { params: request.params })
          return { id: request.id, ok: true, resultJson: 'null' }
        }
        const fn = engine.register(request.source, { params: request.params })
        const opts = request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }
        const resultJson =
          request.op === 'call'
            ? engine.callJSON(fn, request.argsJson, opts)
            : request.op === 'callMany'
              ? engine.callManyJSON(fn, request.argsJson, opts)
              : engine.settleManyJSON(fn, request.argsJson, opts)
        return { id: request.id, ok: true, resultJson }
      } catch (e) {
        const error =
          e instanceof ScriptError ? e : ScriptError.failed(e instanceof Error ? e.message : String(e))
        return { id: request.id, ok: false, error: toScriptErrorData(error), ...(engine.usable ? {} : { restart: true }) }
      }
    },
  }
}

/**
 * Wires a worker's message port to a handler: announces readiness, answers requests strictly in order.
 * Used by both worker entries (worker_threads and Web Worker).
 */
export function serveSandbox(send: (message: SandboxMessage) => void, options: ScriptEngineOptions = {}): (request: SandboxRequest) => void {
  const handler = createSandboxHandler(options)
  handler.ready.then(
    () => send({ id: 0, ready: true }),
    (e: unknown) => send({ id: 0, ready: false, message: e instanceof Error ? e.message : String(e) }),
  )
  let chain: Promise<void> = Promise.resolve()
  return (request) => {
    chain = chain
      .then(() => handler.handle(request))
      .then(send, (e: unknown) =>
        send({
          id: request.id,
          ok: false,
          error: { kind: 'unavailable', message: `脚本引擎不可用：${e instanceof Error ? e.message : String(e)}` },
          restart: true,
        }),
      )
      .then(() => handler.prepare())
  }
}
