/**
 * The typed host API over a SandboxDispatcher, the same on the server and in the browser: arguments are
 * checked and serialised here (non-JSON is refused before anything is sent), results parsed here.
 */
import { projectRow, rowFieldsRead } from './row-projection.js'
import { toJSONText, type JSONValue } from './json-value.js'
import type { SandboxDispatcher } from './sandbox-dispatcher.js'
import { cellText, SCRIPT_PARAMS, type FormatterCell } from './script-kinds.js'
import type { Settled } from './script-engine.js'
import { ScriptError } from './script-error.js'

export interface RunOptions {
  /** the deadline; default 100 ms for one call, 1,000 ms for a batch */
  timeoutMs?: number
  /** parameter names when the source is a function body */
  params?: readonly string[]
}

/** Cells per crossing: bounds the JSON a worker holds at once (QuickJS heap limit) and the deadline. */
export const FORMAT_CHUNK = 2000

/** A result text from a worker as JSON (a script that sabotaged its own run's serialiser gets an error). */
function parseResult(json: string): JSONValue {
  try {
    return JSON.parse(json) as JSONValue
  } catch {
    throw ScriptError.failed('脚本返回值无法解析为 JSON')
  }
}

export class SandboxClient {
  constructor(readonly dispatcher: SandboxDispatcher) {}

  async run(source: string, args: readonly unknown[], options: RunOptions = {}): Promise<JSONValue> {
    const json = await this.dispatcher.request('call', source, options.params ?? [], toJSONText(args), options.timeoutMs)
    return parseResult(json)
  }

  /**
   * Checks that a script compiles without running it (save-time check of stored scripts). A syntax
   * error rejects with ScriptError 脚本执行错误：… whose text names the line and column in the source.
   */
  async check(source: string, options: Pick<RunOptions, 'params'> = {}): Promise<void> {
    await this.dispatcher.request('compile', source, options.params ?? [], '[]')
  }

  /** One crossing for many calls; the first failing item rejects (ScriptError.index tells which). */
  async runMany(source: string, argsList: readonly (readonly unknown[])[], options: RunOptions = {}): Promise<JSONValue[]> {
    const json = await this.dispatcher.request('callMany', source, options.params ?? [], toJSONText(argsList), options.timeoutMs)
    return parseResult(json) as JSONValue[]
  }

  /** Like runMany, but each item settles on its own. Timeouts and memory still reject the whole batch. */
  async settleMany(source: string, argsList: readonly (readonly unknown[])[], options: RunOptions = {}): Promise<Settled[]> {
    const json = await this.dispatcher.request('settleMany', source, options.params ?? [], toJSONText(argsList), options.timeoutMs)
    return parseResult(json) as unknown as Settled[]
  }

  /**
   * A list formatter `(cellValue, row)` (expression or ancestor-style body) over many cells, in
   * crossings of FORMAT_CHUNK cells. Each cell's display text; a cell whose formatter threw shows the
   * Chinese error text (脚本执行错误：…) instead of blanking the whole page. Rejects on timeout/memory.
   */
  async formatCells(source: string, cells: readonly FormatterCell[], options: Pick<RunOptions, 'timeoutMs'> = {}): Promise<string[]> {
    const out: string[] = []
    // Only the row properties the formatter reads cross into QuickJS (see row-projection.ts).
    const fields = rowFieldsRead(source, SCRIPT_PARAMS.formatter[1])
    for (let start = 0; start < cells.length; start += FORMAT_CHUNK) {
      const chunk = cells.slice(start, start + FORMAT_CHUNK).map((c) => [c.value, projectRow(c.row, fields)] as const)
      const settled = await this.settleMany(source, chunk, { ...options, params: SCRIPT_PARAMS.formatter })
      for (const s of settled) out.push(s.ok ? cellText(s.value) : s.error)
    }
    return out
  }
}
