import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { sql, type Migration } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openPostgres, openSqlite, postgresPool } from '../../src/server/db/connections.js'
import type { Db } from '../../src/server/db/dialect.js'
import { migrate, NewerDatabaseError, type MigrationSet } from '../../src/server/db/migrations.js'
import { snapshotChanges, snapshotDatabase } from '../support/database-snapshot.js'
import { createDatabase, dropDatabase, uniqueDatabaseName } from '../support/postgres.js'

const kind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite'
const server = () => process.env.TEST_PG_URL ?? process.env.TEST_DATABASE_URL ?? ''

/** The migrator itself (db/migrations.ts), on a real database of each kind: forward only, once, all or nothing. */
describe(`migrations (${kind})`, () => {
  let dir: string
  let url: string
  let pgName: string | undefined
  const handles: Db[] = []
  /** A handle like the app's platform one: an SQLite file, or the `platform` schema of a PostgreSQL database. */
  const open = () => {
    const db = kind === 'sqlite' ? openSqlite(path.join(dir, 'app.db')) : openPostgres(postgresPool(url, 4)).withSchema('platform')
    handles.push(db)
    return db
  }
  const schema = kind === 'postgres' ? 'platform' : undefined
  const location = () => (kind === 'sqlite' ? dir : url)
  const set = (migrations: Record<string, Migration>): MigrationSet => ({ label: 'test', migrations, schema })
  const runs: string[] = []
  const createItem = (name: string): Migration => ({
    async up(db) {
      runs.push(name)
      await db.schema.createTable(`item_${name}`).addColumn('id', 'varchar(64)', (c) => c.primaryKey()).addColumn('price', kind === 'postgres' ? 'numeric(24, 2)' : 'text').execute()
      await db.insertInto(`item_${name}`).values({ id: 'a', price: '12.30' }).execute()
    },
  })
  const names = async (db: Db) => (await db.selectFrom('kysely_migration').select('name').orderBy('name').execute()).map((r) => r.name)

  beforeEach(async () => {
    runs.length = 0
    dir = await mkdtemp(path.join(os.tmpdir(), 'erp-migrations-'))
    if (kind === 'postgres') {
      pgName = uniqueDatabaseName('migr')
      url = await createDatabase(server(), pgName)
      const root = openPostgres(postgresPool(url, 1))
      await sql`create schema platform`.execute(root)
      await root.destroy()
    }
  })
  afterEach(async () => {
    for (const db of handles.splice(0)) await db.destroy()
    if (pgName) await dropDatabase(server(), pgName)
    await rm(dir, { recursive: true, force: true })
  })

  it('runs the pending migrations in name order, records each, and runs none of them twice', async () => {
    const db = open()
    await migrate(db, set({ '0002_b': createItem('b'), '0001_a': createItem('a') }))
    expect(runs).toEqual(['a', 'b'])
    await migrate(db, set({ '0001_a': createItem('a'), '0002_b': createItem('b'), '0003_c': createItem('c') }))
    await migrate(db, set({ '0001_a': createItem('a'), '0002_b': createItem('b'), '0003_c': createItem('c') }))
    expect(runs).toEqual(['a', 'b', 'c'])
    expect(await names(db)).toEqual(['0001_a', '0002_b', '0003_c'])
    expect((await db.selectFrom('item_c').selectAll().execute()).map((r) => [r.id, String(r.price)])).toEqual([['a', '12.30']])
  })

  it('keeps nothing of a start whose migration fails: earlier pending ones, its own tables and rows roll back', async () => {
    const db = open()
    await migrate(db, set({ '0001_a': createItem('a') }))
    await db.updateTable('item_a').set({ price: '99.99' }).execute()
    const before = await snapshotDatabase(kind, location())
    const failing: Migration = {
      async up(trx) {
        await trx.updateTable('item_a').set({ price: '0.00' }).execute()
        await trx.schema.createTable('half_done').addColumn('id', 'integer').execute()
        await trx.insertInto('missing_table').values({ id: 1 }).execute()
      },
    }
    const start = migrate(db, set({ '0001_a': createItem('a'), '0002_b': createItem('b'), '0003_fails': failing }))
    await expect(start).rejects.toThrow(/test migration 0003_fails failed; this start's migrations were rolled back: .*missing_table/)
    expect(snapshotChanges(before, await snapshotDatabase(kind, location()))).toEqual([])
    expect(await names(db)).toEqual(['0001_a'])
    // Fixed in the next version: the same start goes through.
    await migrate(db, set({ '0001_a': createItem('a'), '0002_b': createItem('b'), '0003_fails': createItem('fixed') }))
    expect(await names(db)).toEqual(['0001_a', '0002_b', '0003_fails'])
  })

  it('refuses a database that a newer version migrated, saying so, and changes nothing', async () => {
    const db = open()
    await migrate(db, set({ '0001_a': createItem('a'), '0002_b': createItem('b') }))
    const before = await snapshotDatabase(kind, location())
    runs.length = 0
    const older = migrate(db, set({ '0001_a': createItem('a'), '0003_c': createItem('c') }))
    await expect(older).rejects.toThrow(NewerDatabaseError)
    await expect(older).rejects.toThrow(
      'The database was made by a newer version of this program: its test migrations 0002_b are unknown here (table kysely_migration). ' +
        'Start the version that made them (or a newer one), or restore the backup taken before the upgrade. Nothing was changed.',
    )
    expect(runs).toEqual([])
    expect(snapshotChanges(before, await snapshotDatabase(kind, location()))).toEqual([])
  })

  it.runIf(kind === 'postgres')('applies each migration once when several processes start at the same moment', async () => {
    const slow: Migration = {
      async up(db) {
        runs.push('slow')
        // Holds the lock long enough for the other starts to queue behind it (not a proof by time: any order passes).
        await sql`select pg_sleep(0.2)`.execute(db)
        await db.schema.createTable('item_slow').addColumn('id', 'integer').execute()
      },
    }
    const migrations = { '0001_a': createItem('a'), '0002_slow': slow }
    const results = await Promise.allSettled([1, 2, 3].map(() => migrate(open(), set(migrations))))
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled'])
    expect(runs.sort()).toEqual(['a', 'slow'])
    expect(await names(open())).toEqual(['0001_a', '0002_slow'])
  })
})
