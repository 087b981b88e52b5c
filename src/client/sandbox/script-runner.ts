/**
 * User scripts in the browser: list formatters, button and request-param scripts, custom-form submit
 * hooks and custom-page configs all run here, in a Web Worker with QuickJS, never with `new Function`.
 * The worker (and the QuickJS wasm) loads on the first call only, so no route pays for it up front;
 * this module itself holds no engine code. A worker that overruns its deadline by the watchdog's grace
 * is terminated and replaced.
 *
 * Every function rejects with ScriptError (its message is the Chinese text to show).
 */
import { SandboxClient, type RunOptions } from '../../shared/sandbox/sandbox-client.js'
import { SandboxDispatcher } from '../../shared/sandbox/sandbox-dispatcher.js'
import { WATCHDOG_GRACE_MS } from '../../shared/sandbox/sandbox-settings.js'
import type { JSONValue } from '../../shared/sandbox/json-value.js'
import { readButtonAction, SCRIPT_PARAMS, type ButtonScriptAction, type FormatterCell } from '../../shared/sandbox/script-kinds.js'
import type { SandboxMessage } from '../../shared/sandbox/worker-protocol.js'
import { tr } from '../i18n/use-tr.js'

export type { FormatterCell, ButtonScriptAction }

let client: SandboxClient | null = null

/**
 * The page's last resort: the worker answers by itself at `deadline + WATCHDOG_GRACE_MS` at the latest
 * (sandbox.worker.ts runs its engine behind the same watchdog as the server's pool); a worker that has
 * not answered a little after that (it could not even start) gets `worker.terminate()`, the request
 * fails with 脚本执行超时, and the queued requests go to a fresh worker (SandboxDispatcher).
 */
const PAGE_GRACE_MS = WATCHDOG_GRACE_MS + 2000

function sandbox(): SandboxClient {
  client ??= new SandboxClient(
    new SandboxDispatcher(
      (events) => {
        const worker = new Worker(new URL('./sandbox.worker.ts', import.meta.url), { type: 'module', name: 'script-sandbox' })
        worker.onmessage = (e: MessageEvent<SandboxMessage>) => events.message(e.data)
        worker.onerror = (e) => events.failure(new Error(e.message || tr('脚本引擎加载失败')))
        return { post: (request) => worker.postMessage(request), terminate: () => worker.terminate() }
      },
      { graceMs: PAGE_GRACE_MS },
    ),
  )
  return client
}

/** Any script with JSON arguments (`params` names them when the source is a function body). */
export function runScript(source: string, args: readonly unknown[], options: RunOptions = {}): Promise<JSONValue> {
  return sandbox().run(source, args, options)
}

/**
 * A list column's formatter over a page of cells, in one crossing per 2,000 cells: the display text of
 * each cell, in order. A cell whose formatter throws shows 脚本执行错误：… in place.
 */
export function formatCells(source: string, cells: readonly FormatterCell[], options: Pick<RunOptions, 'timeoutMs'> = {}): Promise<string[]> {
  return sandbox().formatCells(source, cells, options)
}

/**
 * A toolbar or row button's script (btnType 3). `ctx` is the JSON the script sees as `_this` (e.g.
 * `{ selectedRows, row, queryParams }`); its return value is read as a ButtonScriptAction.
 */
export async function runButtonScript(source: string, ctx: unknown, options: Pick<RunOptions, 'timeoutMs'> = {}): Promise<ButtonScriptAction> {
  return readButtonAction(await sandbox().run(source, [ctx], { ...options, params: SCRIPT_PARAMS.toolbar }))
}

/** A button's requestParam script: toolbar ones see `_this`, row ones see `row`; returns the params. */
export function runRequestParamScript(source: string, input: unknown, scope: 'toolbar' | 'row'): Promise<JSONValue> {
  return sandbox().run(source, [input], { params: SCRIPT_PARAMS[scope] })
}

/**
 * A custom form's prefixSubmit / suffixSubmit hook `(formData, _this)`. Its truthiness is the answer:
 * prefix → abort the submit; suffix → keep the dialog open (as in the ancestor).
 */
export async function runSubmitHook(source: string, formData: unknown, ctx: unknown = {}): Promise<boolean> {
  return !!(await sandbox().run(source, [formData, ctx], { params: SCRIPT_PARAMS.submitHook }))
}

/** A custom page's componentConfig: a body (or function expression) returning the page's JSON config. */
export function runPageConfig(source: string): Promise<JSONValue> {
  return sandbox().run(source, [], { params: SCRIPT_PARAMS.pageConfig })
}
