/**
 * Scripts that try to outlast the sandbox's limits (issue 27), run unchanged against the server's pool
 * (test/unit/sandbox.test.ts) and against the built browser worker in Chromium (test/e2e/sandbox.spec.ts).
 * Each must be answered by the worker itself within its deadline plus `ANSWER_MARGIN_MS`.
 */
export interface HostileScript {
  name: string
  source: string
  /** ScriptError kinds the answer may carry */
  kinds: readonly string[]
}

export const HOSTILE_SCRIPTS: readonly HostileScript[] = [
  // Which limit stops it first depends on the machine's pace: on a busy one filling the arrays outlasts the
  // 100 ms deadline before the memory limit is reached. Either answer stops it; no answer is the failure.
  { name: 'memory bomb', source: 'var a = []; while (true) a.push(new Array(1e6).fill(1))', kinds: ['memory', 'timeout'] },
  { name: 'recursion catching its own stack overflow', source: 'function f(n) { try { return f(n + 1) } catch (e) { return f(n + 1) } } return f(0)', kinds: ['timeout'] },
  { name: 'endless loop', source: 'while (true) {}', kinds: ['timeout'] },
]

/** The deadline the hostile scripts run with, and how long after it their answer may come. */
export const HOSTILE_DEADLINE_MS = 100
export const ANSWER_MARGIN_MS = 5000
