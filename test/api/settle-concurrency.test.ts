import Decimal from 'decimal.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpMethod, TestApp } from '../support/test-app.js'
import { lockConflictRetries } from '../../src/server/platform/db-tx.js'
import { startTestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { settleHelpers, today } from '../support/settle-helpers.js'
import { startCluster, type TestCluster } from '../support/cluster.js'

const onPostgres = process.env.TEST_DB === 'postgres'
const URL = '/settle/sheet'
const CHECK = '/settle/checksheet'
const SUBJECT = '供应商结算单'
const PAIRS = 15

type Answer = { status: number; body: { code: number; msg: string; data?: unknown } }
type Caller = (method: HttpMethod, url: string, body?: unknown) => Promise<Answer>

/** A call through a server process of a cluster (another process than the test's). */
const over = (base: string, token: () => string): Caller => async (method, url, body) => {
  const r = await fetch(`${base}/cloud-api${url}`, {
    method,
    headers: { 'x-auth-token': token(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: r.status, body: (await r.json()) as Answer['body'] }
}

/**
 * Actions racing on settle sheets of ONE check sheet (the issue: approve locked the settle sheet then the
 * check sheet, delete and modify the other way round, and PostgreSQL answered a deadlock as 500). Every
 * answer must be 200 or a clear 4xx in Chinese, and afterwards the money is exact: each sheet approved at
 * most once, the check sheet paid exactly the sum of the approved sheets, the settlement ledger balanced.
 * The same storms run in one process (both databases) and across two server processes (PostgreSQL).
 */
describe('settle sheets under concurrent approve, delete, modify and batch approval', () => {
  let t: TestApp
  let token: string
  let f: TradeFixtures
  const h = settleHelpers(() => t, () => token)
  const { ok } = h
  /** Every settle sheet made here, for the money checks. */
  const made: string[] = []
  const checks: string[] = []
  const local: Caller = (method, url, body) => t.call(method, url, { token, body }) as Promise<Answer>

  /** An approved check sheet of fresh supplier documents: receive 20.00 + fee 5.00 = 25.00 to pay. */
  const checkSheet = async () => {
    const docs = await h.supplierDocs(f)
    const id = await ok<string>('POST', `${CHECK}/approve/pass/direct`, {
      supplierId: f.supplierId,
      startDate: today(),
      endDate: today(),
      products: [{ bizId: docs.receive, payAmount: '20.00' }, { bizId: docs.feePay, payAmount: '5.00' }],
    })
    checks.push(id)
    return id
  }
  const pending = async (check: string, payAmount: string) => {
    const id = await ok<string>('POST', URL, { supplierId: f.supplierId, startDate: today(), endDate: today(), products: [{ bizId: check, payAmount }] })
    made.push(id)
    return id
  }
  const pendings = (check: string, n: number, payAmount: string) => Promise.all(Array.from({ length: n }, () => pending(check, payAmount)))

  /** 200, or a 4xx whose message is Chinese; never 5xx. */
  const clean = (r: Answer, what: string) => {
    expect(r.status, `${what}: ${r.status} ${r.body.msg}`).toBeLessThan(500)
    if (r.status !== 200) {
      expect(r.status, `${what}: ${r.body.msg}`).toBeGreaterThanOrEqual(400)
      expect(r.body.msg, what).toMatch(/[\u4e00-\u9fff]/)
    }
  }
  const statusOf = async (id: string) => {
    const row = await h.db().selectFrom('settle_sheet').select('status').where('id', '=', id).executeTakeFirst()
    return row ? Number(row.status) : undefined
  }

  /** Approve racing delete on every sheet; exactly one of the pair wins, the loser answers why. */
  const approveVersusDelete = async (check: string, approveBy: Caller, deleteBy: Caller) => {
    const ids = await pendings(check, PAIRS, '0.50')
    const answers = await Promise.all(
      ids.map((id, i) => {
        const approve = () => approveBy('PATCH', `${URL}/approve/pass`, { id })
        const remove = () => deleteBy('DELETE', URL, { id })
        // Half the pairs send the delete first: both orders of arrival are raced.
        return i % 2 ? Promise.all([approve(), remove()]) : Promise.all([remove(), approve()]).then(([d, a]) => [a, d])
      }),
    )
    for (const [i, [approved, removed]] of answers.entries()) {
      clean(approved, 'approve')
      clean(removed, 'delete')
      const status = await statusOf(ids[i])
      if (approved.status === 200) {
        expect(removed.body.msg).toBe(`“审核通过”的${SUBJECT}不允许执行删除操作！`)
        expect(status).toBe(3)
      } else {
        expect(removed.status, removed.body.msg).toBe(200)
        expect(approved.body.msg).toBe(`${SUBJECT}不存在！`)
        expect(status).toBeUndefined()
      }
    }
  }

  /** Approve racing modify: the approval always goes through, with the lines stored when it got the sheet. */
  const approveVersusModify = async (check: string, approveBy: Caller, modifyBy: Caller) => {
    const ids = await pendings(check, PAIRS, '0.50')
    const answers = await Promise.all(
      ids.map((id) => {
        const approve = approveBy('PATCH', `${URL}/approve/pass`, { id })
        const modify = modifyBy('PUT', URL, { id, supplierId: f.supplierId, startDate: today(), endDate: today(), products: [{ bizId: check, payAmount: '0.25' }] })
        return Promise.all([approve, modify])
      }),
    )
    for (const [i, [approved, modified]] of answers.entries()) {
      clean(approved, 'approve')
      clean(modified, 'modify')
      expect(approved.status, approved.body.msg).toBe(200)
      if (modified.status !== 200) expect(modified.body.msg).toBe(`${SUBJECT}已审核通过，无法修改！`)
      expect(await statusOf(ids[i])).toBe(3)
    }
  }

  /**
   * 6 overlapping batch approvals over 10 pending sheets: windows of 4 in both directions. A batch is all
   * or nothing, so the batches that pass are disjoint and the approved sheets are exactly theirs.
   */
  const overlappingBatches = async (check: string, callers: Caller[]) => {
    const ids = await pendings(check, 10, '0.50')
    const windows = Array.from({ length: 6 }, (_, k) => {
      const w = [0, 1, 2, 3].map((j) => ids[(k * 2 + j) % 10])
      return k % 2 ? w.reverse() : w
    })
    const answers = await Promise.all(windows.map((w, k) => callers[k % callers.length]('PATCH', `${URL}/approve/pass/batch`, { ids: w })))
    const passed = new Set<string>()
    for (const [k, r] of answers.entries()) {
      clean(r, 'batch approve')
      if (r.status !== 200) {
        expect(r.body.msg).toMatch(new RegExp(`^(第\\d个${SUBJECT}审核通过失败，失败原因：${SUBJECT}已审核通过，不允许继续执行审核！|操作冲突，请稍后重试)$`))
        continue
      }
      for (const id of windows[k]) {
        expect(passed.has(id), 'a sheet approved by two batches').toBe(false)
        passed.add(id)
      }
    }
    expect(passed.size).toBeGreaterThan(0)
    for (const id of ids) expect(await statusOf(id)).toBe(passed.has(id) ? 3 : 0)
  }

  /**
   * The money after a storm: every check sheet paid exactly Σ of its approved settle sheets' lines, the
   * ledger books each approved sheet once (−pay − discount per line) and nothing for the others, and the
   * check sheet's ledger outstanding equals what its row says is unpaid.
   */
  const moneyExact = async () => {
    const db = h.db()
    const lines = made.length
      ? await db
          .selectFrom('settle_sheet_detail as d')
          .innerJoin('settle_sheet as s', 's.id', 'd.sheet_id')
          .select(['d.sheet_id', 'd.biz_id', 'd.pay_amount', 'd.discount_amount', 's.status'])
          .where('s.id', 'in', made)
          .execute()
      : []
    for (const check of checks) {
      const row = await db.selectFrom('settle_check_sheet').selectAll().where('id', '=', check).executeTakeFirstOrThrow()
      const approved = lines.filter((l) => String(l.biz_id) === check && Number(l.status) === 3)
      const paid = approved.reduce((s, l) => s.plus(String(l.pay_amount)), new Decimal(0))
      const discount = approved.reduce((s, l) => s.plus(String(l.discount_amount)), new Decimal(0))
      expect(new Decimal(String(row.total_payed_amount)).toFixed(2), 'paid = Σ approved').toBe(paid.toFixed(2))
      expect(new Decimal(String(row.total_discount_amount)).toFixed(2)).toBe(discount.toFixed(2))
      const unpaid = new Decimal(String(row.total_pay_amount)).minus(paid).minus(discount)
      expect(new Decimal(await h.outstanding(check)).toFixed(2), 'ledger outstanding = unpaid').toBe(unpaid.toFixed(2))
    }
    for (const id of made) {
      const booked = await h.ledger(id)
      const own = lines.filter((l) => String(l.sheet_id) === id)
      if (own.length && Number(own[0].status) === 3) {
        expect(booked, 'an approved sheet is booked once').toHaveLength(own.length)
        expect(booked.map((b) => new Decimal(String(b.amount)).toFixed(2)).sort()).toEqual(
          own.map((l) => new Decimal(String(l.pay_amount)).plus(String(l.discount_amount)).negated().toFixed(2)).sort(),
        )
      } else expect(booked, 'a sheet not approved is not booked').toHaveLength(0)
    }
  }

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    f = await createTradeFixtures(t, token)
    await h.items('C')
  })
  afterAll(async () => t?.close())

  /** The lock order alone keeps these actions apart: no transaction of this process had to be retried. */
  const noRetry = async (storm: () => Promise<void>) => {
    const before = lockConflictRetries()
    await storm()
    expect(lockConflictRetries() - before, 'transactions retried after a deadlock').toBe(0)
  }

  it('approve racing delete: one of each pair wins, the other answers why, never 5xx', async () => {
    const check = await checkSheet()
    await noRetry(() => approveVersusDelete(check, local, local))
    await moneyExact()
  })

  it('approve racing modify: the approval goes through, the modify answers 200 before it or a clear refusal after', async () => {
    const check = await checkSheet()
    await noRetry(() => approveVersusModify(check, local, local))
    await moneyExact()
  })

  it('6 overlapping batch approvals over 10 pending sheets of one check sheet: disjoint winners, clear refusals', async () => {
    const check = await checkSheet()
    await noRetry(() => overlappingBatches(check, [local]))
    await moneyExact()
  })

  describe.skipIf(!onPostgres)('across two server processes on one PostgreSQL (skipped on SQLite: one process by design)', () => {
    let cluster: TestCluster
    let a: Caller
    let b: Caller

    beforeAll(async () => {
      // The cluster's processes serve the test app's database: fixtures and checks go through the test app.
      cluster = await startCluster(2, { DATABASE_URL: t.app.services.config.databaseUrl })
      a = over(cluster.workers[0], () => token)
      b = over(cluster.workers[1], () => token)
    }, 180_000)
    afterAll(async () => cluster?.stop())

    it('approve on one process racing delete and modify on the other, and overlapping batches on both', async () => {
      await approveVersusDelete(await checkSheet(), a, b)
      await approveVersusModify(await checkSheet(), b, a)
      await overlappingBatches(await checkSheet(), [a, b])
      await moneyExact()
    }, 120_000)
  })
})
