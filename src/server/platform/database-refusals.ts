import { CONFLICT_MESSAGE } from './db-tx.js'

/**
 * The last net under "nothing a client sends produces a 5xx": a database refusal that reached the error
 * handler is an answer about the request, not a server fault. Writes validate before they touch the
 * database, so reaching here is a gap in a check (logged as a warning, so it is found and closed), or a race
 * the checks cannot see: a row another writer took or removed in the same moment.
 * - integrity (PostgreSQL class 23, SQLite SQLITE_CONSTRAINT_*): 409 操作冲突 — unique, foreign key, not null;
 * - data exceptions (PostgreSQL class 22: too long, out of range, bad text for a type; SQLite TOOBIG,
 *   MISMATCH, RANGE): 400 请求参数格式错误.
 */
export function databaseRefusal(error: unknown): { status: number; msg: string } | undefined {
  if (!error || typeof error !== 'object') return undefined
  const code = (error as { code?: unknown }).code
  if (typeof code !== 'string') return undefined
  if (/^23[0-9A-Z]{3}$/.test(code) || code.startsWith('SQLITE_CONSTRAINT')) return { status: 409, msg: CONFLICT_MESSAGE }
  if (/^22[0-9A-Z]{3}$/.test(code) || code === 'SQLITE_TOOBIG' || code === 'SQLITE_MISMATCH' || code === 'SQLITE_RANGE') return { status: 400, msg: '请求参数格式错误' }
  return undefined
}
