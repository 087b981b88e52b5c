import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { afterCommit, CONFLICT_MESSAGE, inTransaction, lockConflictRetries, TRANSACTION_ATTEMPTS } from '../../src/server/platform/db-tx.js'
import { BizError } from '../../src/server/platform/errors.js'
import { OPERATOR_TENANT_ID } from '../../src/server/modules/system/seed.js'
import type { Db } from '../../src/server/db/dialect.js'

const onPostgres = process.env.TEST_DB === 'postgres'

/** What a lock conflict looks like from the driver (PostgreSQL's deadlock_detected). */
const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' })

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

/**
 * The one transaction helper retries a transaction that lost a lock conflict (deadlock, serialization
 * failure, SQLite busy) as a whole, a bounded number of times, and answers 409 after the last attempt;
 * what an attempt wrote or queued for after the commit goes with it.
 */
describe('inTransaction: lock conflicts retried, then 409', () => {
  let t: TestApp
  let db: Db
  const count = async (id: string) => Number((await db.selectFrom('retry_probe').select('n').where('id', '=', id).executeTakeFirstOrThrow()).n)
  const bump = (trx: Db, id: string) =>
    trx
      .updateTable('retry_probe')
      .set({ n: sql`n + 1` })
      .where('id', '=', id)
      .execute()

  beforeAll(async () => {
    t = await startTestApp()
    db = t.app.services.databases.tenant(OPERATOR_TENANT_ID)
    await db.schema.createTable('retry_probe').addColumn('id', 'varchar(10)', (c) => c.primaryKey()).addColumn('n', 'integer', (c) => c.notNull()).execute()
  })
  afterAll(async () => t?.close())

  it('runs a conflicted transaction again: the lost attempt writes nothing and its after-commit effects never run', async () => {
    await db.insertInto('retry_probe').values({ id: 'once', n: 0 }).execute()
    const effects: string[] = []
    let attempts = 0
    const answer = await inTransaction(db, async (trx) => {
      attempts++
      await bump(trx, 'once')
      afterCommit(trx, () => effects.push(`attempt ${attempts}`))
      if (attempts === 1) throw deadlock()
      return 'done'
    })
    expect(answer).toBe('done')
    expect(attempts).toBe(2)
    expect(await count('once')).toBe(1)
    expect(effects).toEqual(['attempt 2'])
  })

  it(`gives up after ${TRANSACTION_ATTEMPTS} attempts with 409 ${CONFLICT_MESSAGE}, writing nothing`, async () => {
    await db.insertInto('retry_probe').values({ id: 'never', n: 0 }).execute()
    const effects: number[] = []
    let attempts = 0
    const failed = await inTransaction(db, async (trx) => {
      attempts++
      await bump(trx, 'never')
      afterCommit(trx, () => effects.push(attempts))
      throw deadlock()
    }).catch((error: unknown) => error)
    expect(failed).toBeInstanceOf(BizError)
    expect((failed as BizError).status).toBe(409)
    expect((failed as BizError).message).toBe(CONFLICT_MESSAGE)
    expect(attempts).toBe(TRANSACTION_ATTEMPTS)
    expect(await count('never')).toBe(0)
    expect(effects).toEqual([])
  })

  it('counts serialization failures and SQLite busy (another process holding the write lock) as lock conflicts', async () => {
    for (const code of ['40001', 'SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT']) {
      let attempts = 0
      const answer = await inTransaction(db, async () => {
        attempts++
        if (attempts === 1) throw Object.assign(new Error(code), { code })
        return code
      })
      expect([answer, attempts]).toEqual([code, 2])
    }
  })

  it('retries nothing but lock conflicts and unique races', async () => {
    let attempts = 0
    const failed = await inTransaction(db, async () => {
      attempts++
      throw Object.assign(new Error('value too long'), { code: '22001' })
    }).catch((error: unknown) => error)
    expect((failed as { code: string }).code).toBe('22001')
    expect(attempts).toBe(1)
    // A unique race's loser runs again (its checks then see the winner); one that never passes ends as a 409.
    attempts = 0
    const taken = await inTransaction(db, async () => {
      attempts++
      throw Object.assign(new Error('duplicate key'), { code: onPostgres ? '23505' : 'SQLITE_CONSTRAINT_UNIQUE' })
    }).catch((error: unknown) => error)
    expect(taken).toMatchObject({ status: 409, message: '操作冲突，请稍后重试' })
    expect(attempts).toBe(TRANSACTION_ATTEMPTS)
  })

  it('a nested call joins the outer transaction: the outer one retries the whole, effects wait for its commit', async () => {
    await db.insertInto('retry_probe').values({ id: 'nested', n: 0 }).execute()
    const effects: string[] = []
    let outer = 0
    let inner = 0
    await inTransaction(db, async (trx) => {
      outer++
      await bump(trx, 'nested')
      await inTransaction(trx, async (same) => {
        inner++
        expect(same).toBe(trx)
        await bump(same, 'nested')
        afterCommit(same, () => effects.push(`inner ${outer}`))
        if (outer === 1) throw deadlock()
      })
      expect(effects).toEqual([])
    })
    expect([outer, inner]).toEqual([2, 2])
    expect(await count('nested')).toBe(2)
    expect(effects).toEqual(['inner 2'])
  })

  it.skipIf(!onPostgres)('a real deadlock (two transactions locking two rows in opposite order) is retried and both commit once (PostgreSQL only)', async () => {
    await db.insertInto('retry_probe').values([{ id: 'x', n: 0 }, { id: 'y', n: 0 }]).execute()
    const attempts = { a: 0, b: 0 }
    const holdsA = deferred()
    const holdsB = deferred()
    const side = (name: 'a' | 'b', first: string, second: string, mine: () => void, theirs: Promise<void>) =>
      inTransaction(db, async (trx) => {
        attempts[name]++
        await bump(trx, first)
        // The first attempts wait until each holds its first row, so each then waits for the other's.
        if (attempts[name] === 1) {
          mine()
          await theirs
        }
        await bump(trx, second)
        return name
      })
    const before = lockConflictRetries()
    const answers = await Promise.all([side('a', 'x', 'y', holdsA.resolve, holdsB.promise), side('b', 'y', 'x', holdsB.resolve, holdsA.promise)])
    expect(answers).toEqual(['a', 'b'])
    // PostgreSQL ended exactly one of them as the deadlock's victim; that one ran again.
    expect(attempts.a + attempts.b).toBe(3)
    expect(lockConflictRetries() - before).toBe(1)
    expect([await count('x'), await count('y')]).toEqual([2, 2])
  })
})
