/**
 * The limits every sandbox host runs scripts with, in one place: the server's pool (worker_threads) and
 * the browser's worker use the same engine defaults (script-engine.ts: 32 MB heap with the wasm instance
 * capped, 100 ms per call, 1,000 ms per batch) and the same watchdog.
 */

/**
 * Wall-clock time beyond a request's deadline after which the host terminates the engine's thread: what
 * QuickJS's interrupt cannot end in time (a script catching its own stack overflow builds a long stack
 * trace per catch, so the interrupt, polled every 10,000 calls, comes seconds late) ends here.
 */
export const WATCHDOG_GRACE_MS = 1000

/**
 * QuickJS stack in the browser: 128 KB. Chromium gives a worker less native stack than Node, and at
 * 256 KB deep recursion overflowed the host stack there (a RangeError from the wasm frames instead of
 * QuickJS's own clean "stack overflow"). The server keeps the engine's 256 KB.
 */
export const BROWSER_STACK_BYTES = 128 * 1024
