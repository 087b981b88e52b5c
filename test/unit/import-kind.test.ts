import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Db } from '../../src/server/db/dialect.js'
import { invalid } from '../../src/server/platform/errors.js'
import type { RequestContext } from '../../src/server/platform/request-context.js'
import { runImportKind, type ImportKind } from '../../src/server/engine/import/kind.js'
import { importUnits, rowError, runUnits } from '../../src/server/engine/import/units.js'
import type { ImportRow } from '../../src/server/engine/import/units.js'

/**
 * The import seam on a real SQLite database: a kind that writes "orders" (one per group, a line per
 * row) and refuses some units; what the engine commits and reports is read back from the tables.
 */
const row = (line: number, order: string, qty: string): ImportRow => ({ line, cells: new Map([['order', order], ['qty', qty]]) })

describe('import kinds (engine/import/kind.ts)', () => {
  let db: Db
  let ctx: RequestContext
  beforeEach(async () => {
    db = new Kysely({ dialect: new SqliteDialect({ database: new Database(':memory:') }) })
    await db.schema.createTable('orders').addColumn('code', 'text', (c) => c.primaryKey()).execute()
    await db.schema.createTable('lines').addColumn('order_code', 'text').addColumn('line', 'integer').addColumn('qty', 'integer').execute()
    await db.schema
      .createTable('op_logs')
      .addColumn('id', 'text')
      .addColumn('name', 'text')
      .addColumn('log_type', 'integer')
      .addColumn('ip', 'text')
      .addColumn('extra', 'text')
      .addColumn('create_by', 'text')
      .addColumn('create_by_id', 'text')
      .addColumn('create_time', 'text')
      .addColumn('update_by', 'text')
      .addColumn('update_by_id', 'text')
      .addColumn('update_time', 'text')
      .execute()
    ctx = { token: 't', tenantId: 'T', userId: 'U', username: 'u', name: '测试', db, isAdmin: true, permissions: new Set(), ip: '127.0.0.1' }
  })

  const kind = (atomicity: ImportKind['atomicity']): ImportKind => ({
    url: '/test/order/import',
    access: ['test:import'],
    label: '测试订单',
    columns: [],
    rules: [],
    atomicity,
    groupKey: (r) => r.cells.get('order')!,
    async write(trx, _ctx, rows) {
      const code = rows[0].cells.get('order')!
      const existing = await trx.selectFrom('orders').select('code').where('code', '=', code).executeTakeFirst()
      if (!existing) await trx.insertInto('orders').values({ code }).execute()
      for (const r of rows) {
        // Written first, refused after: the engine must roll the unit back, not only skip it.
        await trx.insertInto('lines').values({ order_code: code, line: r.line, qty: Number(r.cells.get('qty')) }).execute()
        if (r.cells.get('qty') === '0') throw rowError(r.line, '数量不能为0')
        if (r.cells.get('qty') === '-1') throw invalid('数量不能小于0')
      }
      return existing ? 'modify' : 'create'
    },
  })

  const file = [row(2, 'A', '1'), row(3, 'B', '2'), row(4, 'A', '3'), row(5, 'B', '0'), row(6, 'C', '-1'), row(7, 'D', '4')]
  const progress: { process: number; successProcess: number }[] = []
  const report = (p: { process: number; successProcess: number }) => void progress.push(p)
  const lines = async () => (await db.selectFrom('lines').select('line').orderBy('line').execute()).map((r) => r.line)
  const opLogs = () => db.selectFrom('op_logs').select(['name', 'extra']).execute()

  it('groups rows by key in the order of their first row', () => {
    expect(importUnits(kind('group'), file).map((u) => u.map((r) => r.line))).toEqual([[2, 4], [3, 5], [6], [7]])
    expect(importUnits(kind('row'), file)).toHaveLength(6)
    expect(importUnits(kind('all'), file)).toEqual([file])
  })

  it("'group': a refused group is rolled back with its row's message, the other groups are written", async () => {
    const summary = await runImportKind(db, ctx, kind('group'), file, report)
    expect(summary.errors).toEqual(['第5行：数量不能为0', '第6行：数量不能小于0'])
    expect(await lines()).toEqual([2, 4, 7])
    expect((await db.selectFrom('orders').select('code').orderBy('code').execute()).map((r) => r.code)).toEqual(['A', 'D'])
    expect(summary).toMatchObject({ total: 6, created: 3, modified: 0 })
    // 100 is written by the task store with the final state; while running the engine says at most 99.
    expect(progress.at(-1)).toEqual({ process: 99, successProcess: 50 })
    expect(await opLogs()).toEqual([{ name: '导入测试订单', extra: JSON.stringify({ total: 6, created: 3, modified: 0, failed: 2 }) }])
  })

  it("'row': each row on its own", async () => {
    const summary = await runImportKind(db, ctx, kind('row'), file, report)
    expect(summary.errors).toEqual(['第5行：数量不能为0', '第6行：数量不能小于0'])
    expect(await lines()).toEqual([2, 3, 4, 7])
    // Row 4 adds a line to the order row 2 created.
    expect(summary).toMatchObject({ created: 3, modified: 1 })
  })

  it("'all': one refusal and nothing is written, no op log", async () => {
    const summary = await runImportKind(db, ctx, kind('all'), file, report)
    expect(summary).toEqual({ total: 6, created: 0, modified: 0, errors: ['第5行：数量不能为0'] })
    expect(await lines()).toEqual([])
    expect(await opLogs()).toEqual([])
    const ok = await runImportKind(db, ctx, kind('all'), [row(2, 'A', '1'), row(3, 'B', '2')], report)
    expect(ok).toEqual({ total: 2, created: 2, modified: 0, errors: [] })
    expect(await lines()).toEqual([2, 3])
  })

  it('an error that is not a refusal ends the import (the batch is rolled back)', async () => {
    const broken: ImportKind = { ...kind('row'), write: async () => { throw new Error('disk full') } }
    await expect(runImportKind(db, ctx, broken, file, report)).rejects.toThrow('disk full')
    expect(await lines()).toEqual([])
  })

  it('a file that cannot be read on to its end (streamed): the rows read are imported, the message says where it stopped', async () => {
    async function* damaged() {
      yield [row(2, 'A', '1')]
      yield [row(3, 'B', '2')]
      throw invalid('无法读取该文件，请下载模板填写后上传！', 'file')
    }
    // The streamed file's bound (100 rows) was the total until its rows ended.
    const summary = await runUnits({ ctx, db, label: '测试订单', atomicity: 'row', total: 100, units: damaged(), write: (trx, unit) => kind('row').write(trx, ctx, unit), report })
    expect(summary).toEqual({ total: 2, created: 2, modified: 0, errors: ['无法读取该文件，请下载模板填写后上传！（此前读到的2行已处理，其后未导入）'] })
    expect(await lines()).toEqual([2, 3])
    const all = await runUnits({ ctx, db, label: '测试订单', atomicity: 'all', total: 100, units: damaged(), write: (trx, unit) => kind('all').write(trx, ctx, unit), report })
    expect(all.created).toBe(0)
    expect(all.errors[0]).toMatch(/其后未导入/)
    expect(await lines()).toEqual([2, 3])
  })
})
