/**
 * The one error type of the sandbox, on both sides of every boundary (engine, worker, pool, browser).
 * `message` is Chinese and can be shown to the user as is.
 */
export type ScriptErrorKind =
  /** the deadline passed (QuickJS interrupt, or the host watchdog killed the worker) */
  | 'timeout'
  /** the QuickJS memory limit was hit */
  | 'memory'
  /** the script threw, did not compile, or returned something that is not JSON */
  | 'error'
  /** the host tried to pass something that is not JSON */
  | 'argument'
  /** the engine itself is gone (the wasm instance aborted); the worker host restarts it */
  | 'unavailable'

export const SCRIPT_TIMEOUT_MESSAGE = '脚本执行超时'
export const SCRIPT_MEMORY_MESSAGE = '脚本内存超出限制'
export const scriptErrorMessage = (detail: string) => `脚本执行错误：${detail}`

export class ScriptError extends Error {
  override readonly name = 'ScriptError'
  constructor(
    readonly kind: ScriptErrorKind,
    message: string,
    /** for batch calls: the index of the item that failed */
    readonly index?: number,
  ) {
    super(message)
  }

  static timeout(): ScriptError {
    return new ScriptError('timeout', SCRIPT_TIMEOUT_MESSAGE)
  }
  static memory(): ScriptError {
    return new ScriptError('memory', SCRIPT_MEMORY_MESSAGE)
  }
  static failed(detail: string, index?: number): ScriptError {
    return new ScriptError('error', scriptErrorMessage(detail), index)
  }
}

/** What crosses a worker boundary (a structured clone of an Error loses the subclass). */
export interface ScriptErrorData {
  kind: ScriptErrorKind
  message: string
  index?: number
}

export const toScriptErrorData = (e: ScriptError): ScriptErrorData =>
  e.index === undefined ? { kind: e.kind, message: e.message } : { kind: e.kind, message: e.message, index: e.index }

export const fromScriptErrorData = (d: ScriptErrorData): ScriptError => new ScriptError(d.kind, d.message, d.index)
