import { formatCells, runScript as runInSandbox } from '../sandbox/script-runner.js'
import { ScriptError } from '../../shared/sandbox/script-error.js'

/**
 * The low-code hosts' door to the script sandbox (branch `sandbox`: QuickJS in a web worker, loaded
 * on first call). Nothing a user wrote ever runs on the page: not `new Function`, not `eval`.
 */

export { ScriptError as ScriptFailure }

/** Runs one script body once with named parameters; a throw or timeout rejects with the Chinese message. */
export function runScript(source: string, params: readonly string[], args: readonly unknown[]): Promise<unknown> {
  return runInSandbox(source, args, { params })
}

/** A formatter column over a page of cells in one crossing: the display text of each cell. */
export function formatColumn(source: string, cells: readonly { value: unknown; row: unknown }[]): Promise<string[]> {
  return formatCells(source, cells)
}
