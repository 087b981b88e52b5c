import { invalid } from '../platform/errors.js'
import { scriptPool } from '../sandbox/script-sandbox.js'
import { ScriptError, scriptErrorMessage } from '../../shared/sandbox/script-error.js'
import { SCRIPT_PARAMS, type ScriptKind } from '../../shared/sandbox/script-kinds.js'

const DETAIL_PREFIX = scriptErrorMessage('')

/**
 * Save-time check of a stored script (formatter, button, request param, form hook, page config): it is
 * compiled in the sandbox (nothing of it runs), so a syntax error is refused when the admin saves, with
 * the line and column in the message, instead of surfacing in every user's list later.
 */
export async function checkScript(source: string | null | undefined, kind: ScriptKind, where: string, field?: string): Promise<void> {
  if (!source || !source.trim()) return
  try {
    await scriptPool().check(source, { params: SCRIPT_PARAMS[kind] })
  } catch (e) {
    if (!(e instanceof ScriptError)) throw e
    if (e.kind === 'error') {
      const detail = e.message.startsWith(DETAIL_PREFIX) ? e.message.slice(DETAIL_PREFIX.length) : e.message
      throw invalid(`${where}编译失败：${detail}`, field)
    }
    // a script whose top level alone exhausts the limits is refused too: it could never run
    if (e.kind === 'timeout' || e.kind === 'memory') throw invalid(`${where}编译失败：${e.message}`, field)
    throw invalid(`${where}暂时无法检查，请稍后重试`, field)
  }
}

/** A script as the admin typed it (stored values may be trimmed; positions refer to the typed text). */
export const scriptText = (v: unknown): string | null => (typeof v === 'string' ? v : null)
