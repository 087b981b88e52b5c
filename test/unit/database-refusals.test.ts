import { describe, expect, it } from 'vitest'
import { databaseRefusal } from '../../src/server/platform/database-refusals.js'
import { isUniqueViolation } from '../../src/server/platform/db-tx.js'

describe('database refusals answered as 4xx', () => {
  it('integrity violations of both databases are a 409 conflict', () => {
    for (const code of ['23505', '23503', '23502', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_FOREIGNKEY', 'SQLITE_CONSTRAINT_NOTNULL'])
      expect(databaseRefusal(Object.assign(new Error('x'), { code })), code).toEqual({ status: 409, msg: '操作冲突，请稍后重试' })
  })
  it('data exceptions are a 400 format error', () => {
    for (const code of ['22001', '22003', '22P02', 'SQLITE_TOOBIG', 'SQLITE_MISMATCH'])
      expect(databaseRefusal(Object.assign(new Error('x'), { code })), code).toEqual({ status: 400, msg: '请求参数格式错误' })
  })
  it('anything else stays a server fault (lock conflicts have their own retry; connection loss is ours)', () => {
    for (const code of ['40P01', '40001', '57P01', '08006', 'ECONNREFUSED', 'SQLITE_BUSY', 'SQLITE_IOERR', undefined, 23505])
      expect(databaseRefusal(Object.assign(new Error('x'), { code })), String(code)).toBeUndefined()
    expect(databaseRefusal(null)).toBeUndefined()
  })
  it('only unique violations make a transaction run again', () => {
    expect(isUniqueViolation({ code: '23505' })).toBe(true)
    expect(isUniqueViolation({ code: 'SQLITE_CONSTRAINT_UNIQUE' })).toBe(true)
    expect(isUniqueViolation({ code: '23503' })).toBe(false)
  })
})
