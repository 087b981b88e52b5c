/**
 * The QuickJS engine wrapper: ONE implementation, used by the server's worker thread and the browser's
 * web worker (and directly by tests). Synchronous once created; every method is bounded by a deadline
 * (QuickJS interrupt), a memory limit and a stack limit. Values cross only as JSON text.
 *
 * Life cycle: the wasm module is loaded once per thread. Every RUN (one `call`, or one whole
 * `callMany`/`settleMany` batch, e.g. a page of formatter cells) gets a fresh QuickJS runtime and
 * context with the prelude evaluated, compiles its script there, and frees both afterwards: no value,
 * patched intrinsic, closure counter or memory of one run survives into the next. The next run's
 * runtime can be booted ahead of time (`prepare`, called by the worker hosts between requests), so a
 * request does not wait for it.
 */
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
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
  /** scripts whose source is remembered by id (least recently registered are forgotten); default 2,000 */
  maxScripts?: number
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
/** deadline of booting one run's runtime and evaluating the prelude (never counted against a script) */
const BOOT_TIMEOUT_MS = 2000
const DEFAULTS = {
  memoryLimitBytes: 32 * 1024 * 1024,
  maxStackBytes: MAX_STACK,
  timeoutMs: 100,
  batchTimeoutMs: 1000,
  maxScripts: 2000,
}

/**
 * The wasm memory of one QuickJS instance: 16 MB to start (the build's initial size) and never more than
 * 80 MB. QuickJS's own limit (`setMemoryLimit`) cannot stop a memory bomb in this build: emscripten has
 * no `malloc_usable_size`, so QuickJS counts 8 bytes per allocation whatever its size, and
 * `a.push(new Array(1e6).fill(1))` grew the instance to gigabytes over 10-40 s before failing. With the
 * instance's memory capped, malloc fails once a run's heap passes roughly the 32 MB limit plus the next
 * run's prepared environment, and QuickJS throws its clean out-of-memory at once, in any host.
 */
const INSTANCE_INITIAL_BYTES = 16 * 1024 * 1024
export const INSTANCE_MAX_BYTES = 80 * 1024 * 1024
const WASM_PAGE = 64 * 1024

/** A new wasm instance of QuickJS with its memory capped. */
function newInstance(): Promise<QuickJSWASMModule> {
  const wasmMemory = new WebAssembly.Memory({ initial: INSTANCE_INITIAL_BYTES / WASM_PAGE, maximum: INSTANCE_MAX_BYTES / WASM_PAGE })
  return newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmMemory }))
}

let modulePromise: Promise<QuickJSWASMModule> | null = null
let sharedModule: QuickJSWASMModule | null = null

/** The wasm module, loaded once per thread (again only after an instance had to be abandoned). */
export function loadQuickJS(): Promise<QuickJSWASMModule> {
  modulePromise ??= newInstance().then((m) => (sharedModule = m))
  return modulePromise
}

interface ScriptEntry {
  source: string
  paramsText: string
}

/** One run's QuickJS runtime and context, the prelude evaluated, and the prelude's private API. */
interface RunEnv {
  /** the wasm instance it lives in (an abandoned instance is never called again) */
  module: QuickJSWASMModule
  runtime: QuickJSRuntime
  context: QuickJSContext
  compile: QuickJSHandle
  invoke: QuickJSHandle
  invokeMany: QuickJSHandle
}

/** A fatal condition detected while QuickJS ran: the run's runtime is not trusted any more. */
class Fatal {
  constructor(readonly error: ScriptError) {}
}

/**
 * quickjs-emscripten 0.32 `executePendingJobs` reads the context pointer of the last job through an
 * Int32Array view made BEFORE the jobs ran; when a job grew the wasm memory, that view is detached,
 * the pointer reads `undefined`, and the library wraps it with `newContext({contextPointer: undefined})`
 * — which creates a brand-new QuickJS context that nobody ever frees. Freeing the runtime then aborts
 * the whole wasm instance: `Assertion failed: list_empty(&rt->gc_obj_list) … JS_FreeRuntime` (that was
 * the leak behind the endless-promise-chain aborts). Such stray contexts are disposed right after.
 */
function disposeStrayContexts(runtime: QuickJSRuntime, own: QuickJSContext): void {
  const map: unknown = (runtime as unknown as { contextMap?: unknown }).contextMap
  if (!(map instanceof Map)) return
  for (const context of [...(map as Map<unknown, QuickJSContext>).values()]) {
    if (context !== own && context.alive) context.dispose()
  }
}

export class ScriptEngine {
  private readonly options: Required<Omit<ScriptEngineOptions, 'disableInterruptForTests'>> & {
    interrupt: boolean
  }
  /** the next run's environment, booted ahead of time */
  private ready: RunEnv | null = null
  private broken = false
  /** no wasm instance to run on (the last one was abandoned and the next is still loading) */
  private waitingForInstance = false
  private deadline = Number.POSITIVE_INFINITY
  private interrupted = false
  private nextId = 1
  private readonly idsByKey = new Map<string, ScriptId>()
  private readonly scripts = new Map<ScriptId, ScriptEntry>()
  /** how many QuickJS runtimes this engine has booted (one per run, plus the ones prepared ahead) */
  runtimesBooted = 0
  /** how many wasm instances had to be dropped because a runtime could not be freed */
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
      maxScripts: options.maxScripts ?? DEFAULTS.maxScripts,
      interrupt: !options.disableInterruptForTests,
    }
  }

  static async create(options: ScriptEngineOptions = {}): Promise<ScriptEngine> {
    const [module, spare] = await Promise.all([loadQuickJS(), newInstance()])
    const engine = new ScriptEngine(module, options)
    engine.spare = spare
    engine.prepare()
    if (!engine.ready) throw new Error('sandbox engine could not boot')
    return engine
  }

  /**
   * false while the engine has no wasm instance to run on (the last one was abandoned and the next is
   * still loading) or after dispose: a worker host then replaces its worker rather than wait.
   */
  get usable(): boolean {
    return !this.broken && !this.waitingForInstance
  }

  /** Boots the next run's runtime now (the worker hosts call this while idle). Never throws. */
  prepare(): void {
    if (this.ready || !this.usable) return
    try {
      this.ready = this.boot()
    } catch {
      this.ready = null
    }
  }

  /**
   * Registers a script and checks it now (so syntax errors surface here, in a throwaway run). The same
   * source and params always give the same id, so callers may compile on every request.
   */
  compile(source: string, options: CompileOptions = {}): ScriptId {
    const known = this.idsByKey.get(this.keyOf(source, options))
    if (known !== undefined) return known
    const id = this.register(source, options)
    try {
      this.run(id, this.options.timeoutMs, () => null)
    } catch (e) {
      this.forget(id)
      throw e
    }
    return id
  }

  /** Registers a script without running anything; errors in it surface when it is called. */
  register(source: string, options: CompileOptions = {}): ScriptId {
    const key = this.keyOf(source, options)
    let id = this.idsByKey.get(key)
    if (id === undefined) {
      id = this.nextId++
      this.idsByKey.set(key, id)
      this.scripts.set(id, { source, paramsText: JSON.stringify(options.params ?? []) })
      while (this.scripts.size > this.options.maxScripts) this.forget(this.scripts.keys().next().value as ScriptId)
    }
    return id
  }

  /** Calls a script with JSON arguments in a run of its own; the result is JSON. */
  call(id: ScriptId, args: readonly unknown[], options: CallOptions = {}): JSONValue {
    return parseResult(this.callJSON(id, toJSONText(args), options))
  }

  /** The text layer of `call` (what the worker hosts use): `argsJson` is a JSON array. */
  callJSON(id: ScriptId, argsJson: string, options: CallOptions = {}): string {
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs
    const text = this.run(id, timeoutMs, (env, fn) => {
      const args = env.context.newString(argsJson)
      try {
        return env.context.callFunction(env.invoke, env.context.undefined, fn, args)
      } finally {
        args.dispose()
      }
    })
    if (text.startsWith('E')) throw ScriptError.failed(text.slice(1))
    return text.slice(1)
  }

  /**
   * Many calls in ONE run and one crossing: the JSON list of argument lists goes in, QuickJS maps over
   * it, the JSON list of results comes out. The first failing item fails the batch (`error.index`). The
   * deadline covers the whole batch (default `batchTimeoutMs`). The items share the run's context
   * (what one item leaves, the next item of the same batch sees); the next batch does not.
   */
  callMany(id: ScriptId, argsList: readonly (readonly unknown[])[], options: CallOptions = {}): JSONValue[] {
    return parseResult(this.callManyJSON(id, toJSONText(argsList), options)) as JSONValue[]
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
    return parseResult(this.settleManyJSON(id, toJSONText(argsList), options)) as Settled[]
  }

  settleManyJSON(id: ScriptId, argsListJson: string, options: CallOptions = {}): string {
    return this.many(id, argsListJson, true, options).slice(1)
  }

  /** register + call in one run (the source is remembered like any other). */
  evaluate(source: string, args: readonly unknown[], options: CallOptions & CompileOptions = {}): JSONValue {
    return this.call(this.register(source, options), args, options)
  }

  dispose(): void {
    if (this.ready) this.release(this.ready)
    this.ready = null
    this.broken = true
    this.spare = null
  }

  private keyOf(source: string, options: CompileOptions): string {
    return `${JSON.stringify(options.params ?? [])}\u0000${source}`
  }

  private forget(id: ScriptId): void {
    const entry = this.scripts.get(id)
    if (!entry) return
    this.scripts.delete(id)
    this.idsByKey.delete(`${entry.paramsText}\u0000${entry.source}`)
  }

  private many(id: ScriptId, listJson: string, settle: boolean, options: CallOptions): string {
    const timeoutMs = options.timeoutMs ?? this.options.batchTimeoutMs
    return this.run(id, timeoutMs, (env, fn) => {
      const list = env.context.newString(listJson)
      try {
        return env.context.callFunction(env.invokeMany, env.context.undefined, fn, list, settle ? env.context.true : env.context.false)
      } finally {
        list.dispose()
      }
    })
  }

  /**
   * One run: takes a fresh environment, compiles the script in it and runs `body`, then drains the
   * promise jobs, all under one deadline; the environment is freed whatever happened. `body` null only
   * compiles (the syntax check of `compile`).
   */
  private run(
    id: ScriptId,
    timeoutMs: number,
    body: ((env: RunEnv, fn: QuickJSHandle) => ReturnType<QuickJSContext['callFunction']>) | (() => null),
  ): string {
    const entry = this.scripts.get(id)
    if (!entry) throw ScriptError.failed(`脚本未注册（编号 ${id}）`)
    const env = this.takeEnv()
    try {
      return this.guard(timeoutMs, () => {
        const fn = this.compileIn(env, entry)
        try {
          const result = (body as (env: RunEnv, fn: QuickJSHandle) => ReturnType<QuickJSContext['callFunction']> | null)(env, fn)
          if (result === null) {
            this.drainJobs(env)
            return ''
          }
          if (result.error) {
            const error = this.fatalFrom(env, result.error)
            result.error.dispose()
            throw new Fatal(error)
          }
          const text = env.context.getString(result.value)
          result.value.dispose()
          this.drainJobs(env)
          return text
        } finally {
          if (fn.alive) fn.dispose()
        }
      })
    } finally {
      this.release(env)
    }
  }

  /** The script's function in this run's context (a ScriptError when it does not compile). */
  private compileIn(env: RunEnv, entry: ScriptEntry): QuickJSHandle {
    const { context } = env
    const source = context.newString(entry.source)
    const params = context.newString(entry.paramsText)
    const result = context.callFunction(env.compile, context.undefined, source, params)
    source.dispose()
    params.dispose()
    if (result.error) {
      const error = this.fatalFrom(env, result.error)
      result.error.dispose()
      throw new Fatal(error)
    }
    if (context.typeof(result.value) !== 'function') {
      const detail = context.typeof(result.value) === 'string' ? context.getString(result.value) : '脚本不是函数'
      result.value.dispose()
      throw ScriptError.failed(detail)
    }
    return result.value
  }

  private guard<T>(timeoutMs: number, body: () => T): T {
    this.deadline = Date.now() + Math.max(timeoutMs, 1)
    this.interrupted = false
    try {
      const value = body()
      if (this.interrupted) throw new Fatal(ScriptError.timeout())
      return value
    } catch (e) {
      if (e instanceof Fatal) throw e.error
      if (e instanceof ScriptError) throw e
      // The host itself failed inside QuickJS (typically the host stack overflowing under deep
      // recursion when the thread's native stack is smaller than QuickJS's limit assumes): the wasm
      // instance is in an unknown state, so it is dropped without even trying to free anything.
      this.abandonInstance()
      throw e instanceof RangeError ? ScriptError.failed('调用栈溢出（递归过深）') : new ScriptError('unavailable', '脚本引擎异常，请重试')
    } finally {
      this.deadline = Number.POSITIVE_INFINITY
    }
  }

  /** Promise jobs a script queued run now, under the run's deadline, or the run fails: never later. */
  private drainJobs(env: RunEnv): void {
    while (env.runtime.hasPendingJob()) {
      if (Date.now() > this.deadline) throw new Fatal(ScriptError.timeout())
      const r = env.runtime.executePendingJobs()
      let error: ScriptError | null = null
      try {
        if (r.error) {
          const fatal = this.interrupted || this.isOutOfMemory(env, r.error)
          error = fatal ? this.fatalFrom(env, r.error) : null
          r.error.dispose()
        }
      } finally {
        // after the error: a job's error handle may belong to the stray context, and dies with it
        disposeStrayContexts(env.runtime, env.context)
      }
      // an ordinary rejection inside a job is the script's own affair: its result is already final
      if (error) throw new Fatal(error)
      if (this.interrupted) throw new Fatal(ScriptError.timeout())
    }
  }

  /** Only fatal conditions reach here as exceptions: the prelude turns ordinary throws into data. */
  private fatalFrom(env: RunEnv, handle: QuickJSHandle): ScriptError {
    if (this.interrupted) return ScriptError.timeout()
    if (this.isOutOfMemory(env, handle)) return ScriptError.memory()
    let detail = '未知错误'
    try {
      const dumped: unknown = env.context.dump(handle)
      if (dumped && typeof dumped === 'object' && 'message' in dumped) detail = String((dumped as { message: unknown }).message)
      else detail = String(dumped)
    } catch {
      // dumping may itself fail near the memory limit
      return ScriptError.memory()
    }
    if (detail === 'interrupted') return ScriptError.timeout()
    return ScriptError.failed(detail === 'stack overflow' ? '调用栈溢出（递归过深）' : detail.slice(0, 500))
  }

  private isOutOfMemory(env: RunEnv, handle: QuickJSHandle): boolean {
    try {
      const dumped: unknown = env.context.dump(handle)
      return !!dumped && typeof dumped === 'object' && (dumped as { message?: unknown }).message === 'out of memory'
    } catch {
      return true
    }
  }

  private takeEnv(): RunEnv {
    if (!this.usable) throw new ScriptError('unavailable', '脚本引擎不可用，请重试')
    const env = this.ready
    this.ready = null
    if (env) return env
    try {
      return this.boot()
    } catch {
      throw new ScriptError('unavailable', '脚本引擎不可用，请重试')
    }
  }

  /** A fresh runtime and context with the prelude evaluated. */
  private boot(): RunEnv {
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
    const previous = this.deadline
    this.deadline = Date.now() + BOOT_TIMEOUT_MS
    const result = context.evalCode(SANDBOX_PRELUDE, 'sandbox-prelude.js', { strict: true })
    this.deadline = previous
    if (result.error) {
      const detail: unknown = context.dump(result.error)
      result.error.dispose()
      context.dispose()
      runtime.dispose()
      throw new Error(`sandbox prelude failed: ${JSON.stringify(detail)}`)
    }
    const api = result.value
    const env: RunEnv = {
      module: this.module,
      runtime,
      context,
      compile: context.getProp(api, 'compile'),
      invoke: context.getProp(api, 'invoke'),
      invokeMany: context.getProp(api, 'invokeMany'),
    }
    api.dispose()
    this.runtimesBooted++
    return env
  }

  /**
   * Frees a run's context and runtime. Pending promise jobs are freed with the runtime. If QuickJS
   * aborts anyway (`Assertion failed: list_empty(&rt->gc_obj_list)`, a leak inside the wasm
   * instance), the whole instance is dropped and the engine moves to its spare instance.
   */
  private release(env: RunEnv): void {
    if (env.module !== this.module || this.waitingForInstance || !env.runtime.alive) return
    try {
      disposeStrayContexts(env.runtime, env.context)
      for (const h of [env.compile, env.invoke, env.invokeMany]) if (h.alive) h.dispose()
      env.context.dispose()
      env.runtime.dispose()
    } catch {
      this.abandonInstance()
    }
  }

  /**
   * The wasm instance cannot be trusted (an abort while freeing, a host failure inside a QuickJS call):
   * it is dropped without freeing anything (the host's garbage collector reclaims its memory) and the
   * engine moves to the spare instance loaded in the background; without a spare the engine is
   * unusable until the next instance has loaded, and the worker host replaces its worker.
   */
  private abandonInstance(): void {
    this.ready = null
    if (sharedModule === this.module) {
      modulePromise = null
      sharedModule = null
    }
    this.instancesAbandoned++
    const spare = this.spare
    this.spare = null
    this.loadSpare()
    if (spare) {
      this.module = spare
      this.waitingForInstance = false
    } else {
      this.waitingForInstance = true
    }
  }

  private loadSpare(): void {
    newInstance().then(
      (m) => {
        if (this.broken) return
        if (!this.waitingForInstance) {
          this.spare = m
          return
        }
        this.module = m
        this.waitingForInstance = false
        this.loadSpare()
      },
      () => undefined,
    )
  }
}

/** A reply text from QuickJS as JSON (a script that sabotaged its own run's serialiser gets an error). */
function parseResult(text: string): JSONValue {
  try {
    return JSON.parse(text) as JSONValue
  } catch {
    throw ScriptError.failed('脚本返回值无法解析为 JSON')
  }
}
