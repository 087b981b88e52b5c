/**
 * The QuickJS engine wrapper: ONE implementation, used by the server's worker thread and the browser's
 * web worker (and directly by tests). Synchronous once created; every method is bounded by a deadline
 * (QuickJS interrupt), a memory limit and a stack limit. Values cross only as JSON text.
 *
 * Life cycle: the wasm module is loaded once per thread; one runtime with one context is reused for
 * every call (scripts cannot leave state behind: see the prelude). After a timeout or an out-of-memory
 * the runtime is disposed and a fresh one is booted (a runtime that was interrupted mid-allocation is
 * never trusted again); compiled scripts are recompiled lazily from their source.
 */
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core'
import releaseSync from '@jitl/quickjs-wasmfile-release-sync'
import { toJSONText, type JSONValue } from './json-value.js'
import { SANDBOX_PRELUDE } from './sandbox-prelude.js'
import { ScriptError } from './script-error.js'

export interface ScriptEngineOptions {
  /** QuickJS heap limit; default 32 MB */
  memoryLimitBytes?: number
  /** QuickJS stack limit; default and maximum 256 KB (more overflows the host stack, see STACK-NOTES) */
  maxStackBytes?: number
  /** deadline of `call` and `compile`; default 100 ms */
  timeoutMs?: number
  /** deadline of one whole `callMany`/`settleMany` crossing; default 1,000 ms */
  batchTimeoutMs?: number
  /** compiled functions kept alive in the context (least recently used are released); default 500 */
  maxCachedScripts?: number
  /**
   * Tests only: leave the interrupt handler off, to prove that the worker hosts' wall-clock watchdog
   * kills a worker whose script never yields.
   */
  disableInterruptForTests?: boolean
}

export interface CallOptions {
  timeoutMs?: number
}

export interface CompileOptions {
  /**
   * Parameter names for a script written as a function BODY (the ancestor stores formatters as
   * bodies run by `new Function('cellValue', 'row', body)`). A source that is a function expression
   * (`(cellValue, row) => ...`, `function (v) {...}`) is used as is and ignores them.
   */
  params?: readonly string[]
}

export type ScriptId = number

export type Settled = { ok: true; value: JSONValue } | { ok: false; error: string }

const MAX_STACK = 256 * 1024
const DEFAULTS = {
  memoryLimitBytes: 32 * 1024 * 1024,
  maxStackBytes: MAX_STACK,
  timeoutMs: 100,
  batchTimeoutMs: 1000,
  maxCachedScripts: 500,
}

let modulePromise: Promise<QuickJSWASMModule> | null = null
let sharedModule: QuickJSWASMModule | null = null

/** The wasm module, loaded once per thread (again only after an instance had to be abandoned). */
export function loadQuickJS(): Promise<QuickJSWASMModule> {
  modulePromise ??= newQuickJSWASMModuleFromVariant(releaseSync).then((m) => (sharedModule = m))
  return modulePromise
}

interface ScriptEntry {
  source: string
  paramsText: string
}

interface Booted {
  runtime: QuickJSRuntime
  context: QuickJSContext
  compile: QuickJSHandle
  invoke: QuickJSHandle
  invokeMany: QuickJSHandle
}

/** A fatal condition detected while QuickJS ran: the runtime must be recycled. */
class Fatal {
  constructor(readonly error: ScriptError) {}
}

export class ScriptEngine {
  private readonly options: Required<Omit<ScriptEngineOptions, 'disableInterruptForTests'>> & {
    interrupt: boolean
  }
  private vm: Booted | null = null
  private broken = false
  private deadline = Number.POSITIVE_INFINITY
  private interrupted = false
  private nextId = 1
  private readonly idsByKey = new Map<string, ScriptId>()
  private readonly scripts = new Map<ScriptId, ScriptEntry>()
  /** compiled handles of the current runtime, in least-recently-used order */
  private readonly handles = new Map<ScriptId, QuickJSHandle>()
  /** how many runtimes this engine has booted (1 + recycles) */
  runtimesBooted = 0
  /** how many wasm instances had to be dropped because their runtime could not be freed */
  instancesAbandoned = 0
  /** a second wasm instance, loaded in the background, to move to when one must be abandoned */
  private spare: QuickJSWASMModule | null = null

  private constructor(
    private module: QuickJSWASMModule,
    options: ScriptEngineOptions,
  ) {
    this.options = {
      memoryLimitBytes: options.memoryLimitBytes ?? DEFAULTS.memoryLimitBytes,
      maxStackBytes: Math.min(options.maxStackBytes ?? DEFAULTS.maxStackBytes, MAX_STACK),
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      batchTimeoutMs: options.batchTimeoutMs ?? DEFAULTS.batchTimeoutMs,
      maxCachedScripts: options.maxCachedScripts ?? DEFAULTS.maxCachedScripts,
      interrupt: !options.disableInterruptForTests,
    }
  }

  static async create(options: ScriptEngineOptions = {}): Promise<ScriptEngine> {
    const [module, spare] = await Promise.all([loadQuickJS(), newQuickJSWASMModuleFromVariant(releaseSync)])
    const engine = new ScriptEngine(module, options)
    engine.spare = spare
    engine.boot()
    return engine
  }

  /**
   * false while the engine has no runtime (its wasm instance was abandoned and the next one is still
   * loading) or after dispose: a worker host then replaces its worker rather than wait.
   */
  get usable(): boolean {
    return !this.broken && this.vm !== null
  }

  /**
   * Registers a script and compiles it now (so syntax errors surface here). The same source and
   * params always give the same id, so callers may compile on every request.
   */
  compile(source: string, options: CompileOptions = {}): ScriptId {
    const paramsText = JSON.stringify(options.params ?? [])
    const key = `${paramsText}\u0000${source}`
    let id = this.idsByKey.get(key)
    if (id === undefined) {
      id = this.nextId++
      this.idsByKey.set(key, id)
      this.scripts.set(id, { source, paramsText })
      this.forgetOldScripts()
    }
    this.handleFor(id, this.options.timeoutMs)
    return id
  }

  /** Calls a compiled script with JSON arguments; the result is JSON. */
  call(id: ScriptId, args: readonly unknown[], options: CallOptions = {}): JSONValue {
    return JSON.parse(this.callJSON(id, toJSONText(args), options)) as JSONValue
  }

  /** The text layer of `call` (what the worker hosts use): `argsJson` is a JSON array. */
  callJSON(id: ScriptId, argsJson: string, options: CallOptions = {}): string {
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs
    const text = this.run(id, timeoutMs, (vm, fn) => {
      const args = vm.context.newString(argsJson)
      try {
        return vm.context.callFunction(vm.invoke, vm.context.undefined, fn, args)
      } finally {
        args.dispose()
      }
    })
    if (text.startsWith('E')) throw ScriptError.failed(text.slice(1))
    return text.slice(1)
  }

  /**
   * Many calls in ONE crossing: the JSON list of argument lists goes in, QuickJS maps over it, the
   * JSON list of results comes out. The first failing item fails the batch (`error.index`). The
   * deadline covers the whole batch (default `batchTimeoutMs`).
   */
  callMany(id: ScriptId, argsList: readonly (readonly unknown[])[], options: CallOptions = {}): JSONValue[] {
    return JSON.parse(this.callManyJSON(id, toJSONText(argsList), options)) as JSONValue[]
  }

  callManyJSON(id: ScriptId, argsListJson: string, options: CallOptions = {}): string {
    const text = this.many(id, argsListJson, false, options)
    if (text.startsWith('F')) {
      const colon = text.indexOf(':')
      throw ScriptError.failed(text.slice(colon + 1), Number(text.slice(1, colon)))
    }
    return text.slice(1)
  }

  /** Like callMany, but a throwing item gives `{ok: false, error}` instead of failing the batch. */
  settleMany(id: ScriptId, argsList: readonly (readonly unknown[])[], options: CallOptions = {}): Settled[] {
    return JSON.parse(this.settleManyJSON(id, toJSONText(argsList), options)) as Settled[]
  }

  settleManyJSON(id: ScriptId, argsListJson: string, options: CallOptions = {}): string {
    return this.many(id, argsListJson, true, options).slice(1)
  }

  /** compile + call in one step (the source is cached like any other). */
  evaluate(source: string, args: readonly unknown[], options: CallOptions & CompileOptions = {}): JSONValue {
    return this.call(this.compile(source, options), args, options)
  }

  dispose(): void {
    this.teardown()
    this.broken = true
    this.spare = null
  }

  private many(id: ScriptId, listJson: string, settle: boolean, options: CallOptions): string {
    const timeoutMs = options.timeoutMs ?? this.options.batchTimeoutMs
    return this.run(id, timeoutMs, (vm, fn) => {
      const list = vm.context.newString(listJson)
      try {
        return vm.context.callFunction(vm.invokeMany, vm.context.undefined, fn, list, settle ? vm.context.true : vm.context.false)
      } finally {
        list.dispose()
      }
    })
  }

  /** Runs `body` under a fresh deadline, drains pending jobs under the same deadline, maps failures. */
  private run(
    id: ScriptId,
    timeoutMs: number,
    body: (vm: Booted, fn: QuickJSHandle) => ReturnType<QuickJSContext['callFunction']>,
  ): string {
    const started = Date.now()
    const fn = this.handleFor(id, timeoutMs)
    const vm = this.alive()
    return this.guard(timeoutMs - (Date.now() - started), () => {
      const result = body(vm, fn)
      if (result.error) {
        const error = this.fatalFrom(result.error)
        result.error.dispose()
        throw new Fatal(error)
      }
      const text = vm.context.getString(result.value)
      result.value.dispose()
      this.drainJobs(vm)
      return text
    })
  }

  private guard<T>(timeoutMs: number, body: () => T): T {
    this.deadline = Date.now() + Math.max(timeoutMs, 1)
    this.interrupted = false
    try {
      const value = body()
      if (this.interrupted) throw new Fatal(ScriptError.timeout())
      return value
    } catch (e) {
      if (e instanceof Fatal) {
        this.recycle()
        throw e.error
      }
      if (e instanceof ScriptError) throw e
      // The host itself failed inside QuickJS (typically the host stack overflowing under deep
      // recursion when the thread's native stack is smaller than QuickJS's limit assumes): the wasm
      // instance is in an unknown state, so it is dropped without even trying to free it.
      this.recycle(false)
      throw e instanceof RangeError ? ScriptError.failed('调用栈溢出（递归过深）') : new ScriptError('unavailable', '脚本引擎异常，请重试')
    } finally {
      this.deadline = Number.POSITIVE_INFINITY
    }
  }

  /** Promise jobs a script queued run now, under the call's deadline, or the call fails: never later. */
  private drainJobs(vm: Booted): void {
    while (vm.runtime.hasPendingJob()) {
      if (Date.now() > this.deadline) throw new Fatal(ScriptError.timeout())
      const r = vm.runtime.executePendingJobs()
      if (r.error) {
        const fatal = this.interrupted || this.isOutOfMemory(vm.context, r.error)
        const error = this.fatalFrom(r.error)
        r.error.dispose()
        // an ordinary rejection inside a job is the script's own affair: its result is already final
        if (fatal) throw new Fatal(error)
      }
    }
  }

  /** Only fatal conditions reach here as exceptions: the prelude turns ordinary throws into data. */
  private fatalFrom(handle: QuickJSHandle): ScriptError {
    if (this.interrupted) return ScriptError.timeout()
    const vm = this.alive()
    if (this.isOutOfMemory(vm.context, handle)) return ScriptError.memory()
    let detail = '未知错误'
    try {
      const dumped: unknown = vm.context.dump(handle)
      if (dumped && typeof dumped === 'object' && 'message' in dumped) detail = String((dumped as { message: unknown }).message)
      else detail = String(dumped)
    } catch {
      // dumping may itself fail near the memory limit
      return ScriptError.memory()
    }
    if (detail === 'interrupted') return ScriptError.timeout()
    return ScriptError.failed(detail === 'stack overflow' ? '调用栈溢出（递归过深）' : detail.slice(0, 500))
  }

  private isOutOfMemory(context: QuickJSContext, handle: QuickJSHandle): boolean {
    try {
      const dumped: unknown = context.dump(handle)
      return !!dumped && typeof dumped === 'object' && (dumped as { message?: unknown }).message === 'out of memory'
    } catch {
      return true
    }
  }

  private handleFor(id: ScriptId, timeoutMs: number): QuickJSHandle {
    const cached = this.handles.get(id)
    if (cached) {
      this.handles.delete(id)
      this.handles.set(id, cached)
      return cached
    }
    const entry = this.scripts.get(id)
    if (!entry) throw ScriptError.failed(`脚本未编译（编号 ${id}）`)
    const vm = this.alive()
    const handle = this.guard(timeoutMs, () => {
      const source = vm.context.newString(entry.source)
      const params = vm.context.newString(entry.paramsText)
      const result = vm.context.callFunction(vm.compile, vm.context.undefined, source, params)
      source.dispose()
      params.dispose()
      if (result.error) {
        const error = this.fatalFrom(result.error)
        result.error.dispose()
        throw new Fatal(error)
      }
      this.drainJobs(vm)
      if (vm.context.typeof(result.value) !== 'function') {
        const detail = vm.context.typeof(result.value) === 'string' ? vm.context.getString(result.value) : '脚本不是函数'
        result.value.dispose()
        throw ScriptError.failed(detail)
      }
      return result.value
    })
    this.handles.set(id, handle)
    while (this.handles.size > this.options.maxCachedScripts) {
      const [oldest, h] = this.handles.entries().next().value as [ScriptId, QuickJSHandle]
      this.handles.delete(oldest)
      h.dispose()
    }
    return handle
  }

  /** Ids of scripts nobody compiled for a long time are forgotten (their source with them). */
  private forgetOldScripts(): void {
    const limit = this.options.maxCachedScripts * 4
    while (this.scripts.size > limit) {
      const [oldest, entry] = this.scripts.entries().next().value as [ScriptId, ScriptEntry]
      this.scripts.delete(oldest)
      this.idsByKey.delete(`${entry.paramsText}\u0000${entry.source}`)
      const h = this.handles.get(oldest)
      if (h) {
        this.handles.delete(oldest)
        h.dispose()
      }
    }
  }

  private alive(): Booted {
    if (this.broken || !this.vm) throw new ScriptError('unavailable', '脚本引擎不可用，请重试')
    return this.vm
  }

  private boot(): void {
    const runtime = this.module.newRuntime()
    runtime.setMemoryLimit(this.options.memoryLimitBytes)
    runtime.setMaxStackSize(this.options.maxStackBytes)
    if (this.options.interrupt) {
      runtime.setInterruptHandler(() => {
        if (Date.now() > this.deadline) {
          this.interrupted = true
          return true
        }
        return false
      })
    }
    const context = runtime.newContext()
    this.deadline = Date.now() + 2000
    const result = context.evalCode(SANDBOX_PRELUDE, 'sandbox-prelude.js', { strict: true })
    this.deadline = Number.POSITIVE_INFINITY
    if (result.error) {
      const detail: unknown = context.dump(result.error)
      result.error.dispose()
      context.dispose()
      runtime.dispose()
      throw new Error(`sandbox prelude failed: ${JSON.stringify(detail)}`)
    }
    const api = result.value
    const vm: Booted = {
      runtime,
      context,
      compile: context.getProp(api, 'compile'),
      invoke: context.getProp(api, 'invoke'),
      invokeMany: context.getProp(api, 'invokeMany'),
    }
    api.dispose()
    this.vm = vm
    this.runtimesBooted++
  }

  /**
   * Frees the runtime. Returns false when that is not possible: QuickJS aborts the whole wasm instance
   * (`Assertion failed: list_empty(&rt->gc_obj_list)`) when a runtime is freed with promise jobs still
   * queued, e.g. after a deadline hit an endless job chain; such a runtime is abandoned instead.
   */
  private teardown(): boolean {
    const vm = this.vm
    this.vm = null
    const handles = [...this.handles.values()]
    this.handles.clear()
    if (!vm) return true
    try {
      if (vm.runtime.hasPendingJob()) return false
      for (const h of handles) if (h.alive) h.dispose()
      vm.compile.dispose()
      vm.invoke.dispose()
      vm.invokeMany.dispose()
      vm.context.dispose()
      vm.runtime.dispose()
      return true
    } catch {
      return false
    }
  }

  /**
   * A runtime that hit a timeout or the memory limit is thrown away. When it cannot be freed, the whole
   * wasm instance is dropped (the host's garbage collector reclaims its memory) and the engine moves to
   * a spare instance loaded in the background; without a spare the engine is unusable and the worker
   * host replaces its worker.
   */
  private recycle(canFree = true): void {
    if (!canFree) {
      this.vm = null
      this.handles.clear()
    }
    if (!canFree || !this.teardown()) {
      if (sharedModule === this.module) {
        modulePromise = null
        sharedModule = null
      }
      this.instancesAbandoned++
      const spare = this.spare
      this.spare = null
      this.loadSpare()
      if (!spare) return // unusable until the next instance has loaded (see loadSpare)
      this.module = spare
    }
    try {
      this.boot()
    } catch {
      this.vm = null
    }
  }

  private loadSpare(): void {
    newQuickJSWASMModuleFromVariant(releaseSync).then(
      (m) => {
        if (this.broken) return
        if (this.vm) {
          this.spare = m
          return
        }
        this.module = m
        this.loadSpare()
        try {
          this.boot()
        } catch {
          this.vm = null
        }
      },
      () => undefined,
    )
  }
}
