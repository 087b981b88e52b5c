import type { ScriptReply, ScriptRequest, Settled } from './script-protocol.js'

export type { Settled }

/**
 * The page's side of the low-code script sandbox (QuickJS in a web worker, loaded on first use).
 * Nothing a user wrote ever runs on the page: not `new Function`, not `eval`.
 */

const DEADLINE_MS = 1000
/** The worker itself must answer within this, or it is killed and replaced. */
const WATCHDOG_MS = 5000

let worker: Worker | null = null
let nextId = 1
const pending = new Map<number, { resolve: (r: ScriptReply) => void; timer: ReturnType<typeof setTimeout> }>()

function ensureWorker(): Worker {
  if (worker) return worker
  const w = new Worker(new URL('./script-worker.ts', import.meta.url), { type: 'module' })
  w.onmessage = (event: MessageEvent<ScriptReply>) => {
    const p = pending.get(event.data.id)
    if (!p) return
    clearTimeout(p.timer)
    pending.delete(event.data.id)
    p.resolve(event.data)
  }
  w.onerror = () => killWorker('脚本引擎加载失败')
  worker = w
  return w
}

function killWorker(error: string) {
  worker?.terminate()
  worker = null
  for (const [id, p] of pending) {
    clearTimeout(p.timer)
    p.resolve({ id, ok: false, error })
  }
  pending.clear()
}

function send(source: string, params: readonly string[], argsList: readonly (readonly unknown[])[]): Promise<ScriptReply> {
  const id = nextId++
  const request: ScriptRequest = { id, source, params, argsList, timeoutMs: DEADLINE_MS }
  return new Promise((resolve) => {
    const timer = setTimeout(() => killWorker('脚本执行超时'), WATCHDOG_MS)
    pending.set(id, { resolve, timer })
    ensureWorker().postMessage(request)
  })
}

export class ScriptFailure extends Error {}

/** Runs one script body once; a throw or timeout rejects with the Chinese message. */
export async function runScript(source: string, params: readonly string[], args: readonly unknown[]): Promise<unknown> {
  const reply = await send(source, params, [args])
  if (!reply.ok) throw new ScriptFailure(reply.error)
  const [first] = reply.results
  if (!first || !first.ok) throw new ScriptFailure(first ? `脚本错误：${first.error}` : '脚本无结果')
  return first.value
}

/** Runs one script for many argument lists in ONE crossing (a page of formatter cells). */
export async function runScriptMany(source: string, params: readonly string[], argsList: readonly (readonly unknown[])[]): Promise<Settled[]> {
  if (!argsList.length) return []
  const reply = await send(source, params, argsList)
  if (!reply.ok) return argsList.map(() => ({ ok: false, error: reply.error }))
  return reply.results
}
