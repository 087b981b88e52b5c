/**
 * The host side of the sandbox workers, shared by the server (worker_threads) and the browser (Web
 * Worker): a lazily started pool, a queue, one request per worker at a time, and a wall-clock
 * watchdog. QuickJS's own interrupt normally ends a runaway script at its deadline; when it cannot
 * (a script stuck inside one long native call, a memory bomb thrashing the collector, a broken engine)
 * the watchdog terminates the worker after `deadline + graceMs`, fails that request with 脚本执行超时 and
 * the next request starts a fresh worker.
 */
import { fromScriptErrorData, ScriptError } from './script-error.js'
import type { SandboxMessage, SandboxOp, SandboxRequest } from './worker-protocol.js'

export interface SandboxWorkerPort {
  post(request: SandboxRequest): void
  terminate(): void
}

export interface SandboxWorkerEvents {
  message(message: SandboxMessage): void
  /** the worker died or could not start */
  failure(error: unknown): void
}

export type SpawnSandboxWorker = (events: SandboxWorkerEvents) => SandboxWorkerPort

export interface SandboxDispatcherOptions {
  /** workers in the pool; default 1 */
  size?: number
  /** extra wall-clock time beyond a request's deadline before the worker is killed; default 1,000 ms */
  graceMs?: number
  /** time a new worker may take to load QuickJS; default 10,000 ms */
  startTimeoutMs?: number
  /** deadlines when a request names none: single calls and batches (the engine's defaults) */
  callTimeoutMs?: number
  batchTimeoutMs?: number
}

interface Pending {
  request: SandboxRequest
  resolve(json: string): void
  reject(error: Error): void
}

interface Slot {
  port: SandboxWorkerPort
  ready: boolean
  busy: Pending | null
  watchdog: ReturnType<typeof setTimeout> | null
}

export interface SandboxStats {
  workersStarted: number
  workersKilled: number
  requests: number
}

export class SandboxDispatcher {
  private readonly size: number
  private readonly graceMs: number
  private readonly startTimeoutMs: number
  private readonly callTimeoutMs: number
  private readonly batchTimeoutMs: number
  private readonly slots: Slot[] = []
  private readonly queue: Pending[] = []
  private nextId = 1
  private closed = false
  readonly stats: SandboxStats = { workersStarted: 0, workersKilled: 0, requests: 0 }

  constructor(
    private readonly spawn: SpawnSandboxWorker,
    options: SandboxDispatcherOptions = {},
  ) {
    this.size = Math.max(1, options.size ?? 1)
    this.graceMs = options.graceMs ?? 1000
    this.startTimeoutMs = options.startTimeoutMs ?? 10_000
    this.callTimeoutMs = options.callTimeoutMs ?? 100
    this.batchTimeoutMs = options.batchTimeoutMs ?? 1000
  }

  /** Sends one request; resolves with the result's JSON text or rejects with a ScriptError. */
  request(op: SandboxOp, source: string, params: readonly string[], argsJson: string, timeoutMs?: number): Promise<string> {
    if (this.closed) return Promise.reject(new ScriptError('unavailable', '脚本引擎已关闭'))
    this.stats.requests++
    const request: SandboxRequest = {
      id: this.nextId++,
      op,
      source,
      params,
      argsJson,
      timeoutMs: timeoutMs ?? (op === 'call' ? this.callTimeoutMs : this.batchTimeoutMs),
    }
    return new Promise<string>((resolve, reject) => {
      this.queue.push({ request, resolve, reject })
      this.pump()
    })
  }

  /** Terminates every worker; queued and running requests fail. */
  close(): void {
    this.closed = true
    for (const slot of [...this.slots]) this.kill(slot, new ScriptError('unavailable', '脚本引擎已关闭'))
    for (const p of this.queue.splice(0)) p.reject(new ScriptError('unavailable', '脚本引擎已关闭'))
  }

  get workerCount(): number {
    return this.slots.length
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.ready && !s.busy)
      if (!slot) {
        if (this.slots.length < this.size) this.start()
        return
      }
      this.dispatch(slot, this.queue.shift()!)
    }
  }

  private dispatch(slot: Slot, pending: Pending): void {
    slot.busy = pending
    const limit = (pending.request.timeoutMs ?? this.batchTimeoutMs) + this.graceMs
    slot.watchdog = setTimeout(() => this.kill(slot, ScriptError.timeout()), limit)
    try {
      slot.port.post(pending.request)
    } catch (e) {
      this.kill(slot, e instanceof Error ? e : new Error(String(e)))
    }
  }

  private start(): void {
    const slot: Slot = { port: undefined as unknown as SandboxWorkerPort, ready: false, busy: null, watchdog: null }
    this.slots.push(slot)
    this.stats.workersStarted++
    slot.watchdog = setTimeout(
      () => this.kill(slot, new ScriptError('unavailable', '脚本引擎启动超时')),
      this.startTimeoutMs,
    )
    try {
      slot.port = this.spawn({
        message: (message) => this.onMessage(slot, message),
        failure: (error) =>
          this.kill(slot, new ScriptError('unavailable', `脚本引擎异常退出：${error instanceof Error ? error.message : String(error)}`)),
      })
    } catch (e) {
      this.kill(slot, new ScriptError('unavailable', `脚本引擎无法启动：${e instanceof Error ? e.message : String(e)}`))
    }
  }

  private onMessage(slot: Slot, message: SandboxMessage): void {
    if (!this.slots.includes(slot)) return
    if ('ready' in message) {
      if (message.ready) {
        this.clearWatchdog(slot)
        slot.ready = true
        this.pump()
      } else {
        this.kill(slot, new ScriptError('unavailable', `脚本引擎无法启动：${message.message}`))
      }
      return
    }
    const pending = slot.busy
    if (!pending || pending.request.id !== message.id) return
    this.clearWatchdog(slot)
    slot.busy = null
    if (message.ok) pending.resolve(message.resultJson)
    else pending.reject(fromScriptErrorData(message.error))
    if (!message.ok && message.restart) this.kill(slot, null)
    this.pump()
  }

  /** Ends a worker: its running request (and, if no worker is left to take them, nothing else) fails. */
  private kill(slot: Slot, error: Error | null): void {
    const index = this.slots.indexOf(slot)
    if (index < 0) return
    this.slots.splice(index, 1)
    this.clearWatchdog(slot)
    this.stats.workersKilled++
    try {
      slot.port?.terminate()
    } catch {
      // already gone
    }
    const pending = slot.busy
    slot.busy = null
    if (pending) pending.reject(error ?? new ScriptError('unavailable', '脚本引擎不可用，请重试'))
    else if (!slot.ready && error && !this.closed) {
      // the worker never started: the requests waiting for it fail instead of waiting forever
      for (const p of this.queue.splice(0)) p.reject(error)
    }
    if (!this.closed) this.pump()
  }

  private clearWatchdog(slot: Slot): void {
    if (slot.watchdog) clearTimeout(slot.watchdog)
    slot.watchdog = null
  }
}
