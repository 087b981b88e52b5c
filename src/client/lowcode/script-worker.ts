/// <reference lib="webworker" />
import { newQuickJSWASMModuleFromVariant, shouldInterruptAfterDeadline, type QuickJSWASMModule } from 'quickjs-emscripten-core'
import releaseSync from '@jitl/quickjs-wasmfile-release-sync'
import type { ScriptRequest, ScriptReply } from './script-protocol.js'

/**
 * The web worker that runs low-code scripts (formatters, button and form hooks, page scripts) in
 * QuickJS: a fresh runtime per request, a memory limit, a 256 KB stack (STACK-NOTES 6) and a
 * deadline; the page's host also kills the whole worker when it does not answer in time. Values
 * cross as JSON text only.
 */

const MEMORY_LIMIT = 16 * 1024 * 1024
const STACK_LIMIT = 256 * 1024

let modulePromise: Promise<QuickJSWASMModule> | null = null

function program(request: ScriptRequest): string {
  // Parameter names come from the host (`cellValue`, `row`, `_this`, `formData`), never from users.
  const params = request.params.filter((p) => /^[A-Za-z_$][\w$]*$/.test(p)).join(', ')
  return `(function () {
  'use strict';
  var list = JSON.parse(${JSON.stringify(JSON.stringify(request.argsList))});
  var out = [];
  for (var i = 0; i < list.length; i++) {
    try {
      var value = (function (${params}) {
${request.source}
      }).apply(undefined, list[i]);
      var text = JSON.stringify(value === undefined ? null : value);
      out.push({ ok: true, value: text === undefined ? null : JSON.parse(text) });
    } catch (e) {
      out.push({ ok: false, error: String(e && e.message ? e.message : e) });
    }
  }
  return JSON.stringify(out);
})()`
}

async function run(request: ScriptRequest): Promise<ScriptReply> {
  modulePromise ??= newQuickJSWASMModuleFromVariant(releaseSync)
  const quickjs = await modulePromise
  const runtime = quickjs.newRuntime()
  try {
    runtime.setMemoryLimit(MEMORY_LIMIT)
    runtime.setMaxStackSize(STACK_LIMIT)
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + request.timeoutMs))
    const context = runtime.newContext()
    try {
      const result = context.evalCode(program(request), 'script.js')
      if (result.error) {
        const error = context.dump(result.error) as { message?: string } | string
        result.error.dispose()
        const message = typeof error === 'string' ? error : error?.message ?? String(error)
        return { id: request.id, ok: false, error: /interrupted/i.test(message) ? '脚本执行超时' : `脚本错误：${message}` }
      }
      const text = context.getString(result.value)
      result.value.dispose()
      return { id: request.id, ok: true, results: JSON.parse(text) as ScriptReply extends { results: infer R } ? R : never }
    } finally {
      context.dispose()
    }
  } catch (e) {
    return { id: request.id, ok: false, error: `脚本错误：${e instanceof Error ? e.message : String(e)}` }
  } finally {
    try {
      runtime.dispose()
    } catch {
      // A runtime broken by an interrupt mid-allocation is dropped with the request.
    }
  }
}

const scope = self as unknown as DedicatedWorkerGlobalScope
scope.onmessage = (event: MessageEvent<ScriptRequest>) => {
  void run(event.data).then((reply) => scope.postMessage(reply))
}
