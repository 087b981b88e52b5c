/// <reference lib="webworker" />
/** The browser's sandbox Web Worker: one QuickJS engine (the shared one), one request at a time. */
import { serveSandbox, type SandboxMessage, type SandboxRequest } from '../../shared/sandbox/worker-protocol.js'

/**
 * QuickJS stack in the browser: 128 KB. Chromium gives a worker less native stack than Node, and at
 * 256 KB deep recursion overflowed the host stack there (seen: RangeError from the wasm frames instead
 * of QuickJS's own clean "stack overflow").
 */
const BROWSER_STACK_BYTES = 128 * 1024
/**
 * QuickJS heap of one run (each run has a runtime of its own). QuickJS checks it on every allocation;
 * what it cannot stop (one native call looping without allocating) the host's watchdog ends by
 * terminating this worker (script-runner.ts).
 */
const BROWSER_MEMORY_BYTES = 32 * 1024 * 1024
const scope = self as unknown as DedicatedWorkerGlobalScope
const onRequest = serveSandbox((message: SandboxMessage) => scope.postMessage(message), {
  maxStackBytes: BROWSER_STACK_BYTES,
  memoryLimitBytes: BROWSER_MEMORY_BYTES,
})
scope.onmessage = (event: MessageEvent<SandboxRequest>) => onRequest(event.data)
