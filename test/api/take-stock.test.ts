import dayjs from 'dayjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { money, stockClient } from '../support/stock-helpers.js'
import { userWithMenus } from '../support/access-helpers.js'
import { catalogueRows } from '../support/endpoint-catalogue.js'
import { INAPPLICABLE_CALLS } from '../../src/server/modules/stock-docs/inapplicable-calls.js'

type Line = { productId: string; productCode: string; stockNum: number; oriTakeNum: number | null; takeNum: number | null; totalInNum: number; totalOutNum: number }
type Plan = { id: string; code: string; takeStatus: number; takeType: number; scId: string; details: Line[]; allowChangeNum: boolean; autoChangeStock: boolean }

describe('stock-taking: config, plans, pre-take sheets, take sheets, diff', () => {
  let t: TestApp
  let f: TradeFixtures
  let c: ReturnType<typeof stockClient>
  let reasonId: string
  const plan = (id: string) => c.ok<Plan>('GET', '/stock/take/plan/detail', undefined, { id })
  const lineOf = async (id: string, productId: string) => (await plan(id)).details.find((d) => d.productId === productId)
  const sheet = (planId: string, products: { productId: string; takeNum: number }[], extra: Record<string, unknown> = {}) => ({ planId, products, ...extra })

  beforeAll(async () => {
    t = await startTestApp()
    const token = await t.login()
    f = await createTradeFixtures(t, token)
    c = stockClient(t, token)
    reasonId = await c.ok<string>('POST', '/stock/adjust/reason', { code: 'R01', name: '损溢' })
    await c.receive(f.scA, f.supplierId, [
      { productId: f.p1, orderNum: 10, taxPrice: '10.00' },
      { productId: f.p2, orderNum: 5, taxPrice: '20.00' },
    ])
  })
  afterAll(async () => t?.close())

  it('keeps the configuration as one row with the seeded defaults', async () => {
    expect(await c.ok('GET', '/stock/take/config')).toMatchObject({ showProduct: true, showStock: true, autoChangeStock: true, allowChangeNum: true, cancelHours: 168 })
    await c.ok('PUT', '/stock/take/config', { allowChangeNum: false })
    expect(await c.ok('GET', '/stock/take/config')).toMatchObject({ allowChangeNum: false, autoChangeStock: true })
    expect((await c.call('PUT', '/stock/take/config', { cancelHours: 0 })).body.msg).toBe('自动作废时间（小时）必须大于0')
  })

  it('creates plans by take type with a stock snapshot', async () => {
    expect((await c.call('POST', '/stock/take/plan', { scId: f.scA, takeType: 2 })).body.msg).toBe('请选择商品类目！')
    expect((await c.call('POST', '/stock/take/plan', { scId: f.scA, takeType: 3, bizIds: [] })).body.msg).toBe('请选择商品品牌！')
    expect((await c.call('POST', '/stock/take/plan', { scId: f.scA, takeType: 2, bizIds: ['nothing'] })).body.msg).toBe('没有查询到商品信息，无法生成盘点任务！')
    const byBrand = await c.ok<string>('POST', '/stock/take/plan', { scId: f.scB, takeType: 3, bizIds: [f.brandId], description: '品牌' })
    const p = await plan(byBrand)
    expect(p).toMatchObject({ takeStatus: 0, takeType: 3, scId: f.scB, allowChangeNum: false, autoChangeStock: true })
    // Bundles hold no stock: only P1..P3.
    expect(p.details.map((d) => [d.productCode, d.stockNum, d.oriTakeNum, d.totalInNum, d.totalOutNum])).toEqual([
      ['FP1', 0, null, 0, 0],
      ['FP2', 0, null, 0, 0],
      ['FP3', 0, null, 0, 0],
    ])
    await c.ok('PUT', '/stock/take/plan', { id: byBrand, scId: f.scB, description: '改过', takeType: 1 })
    expect(await c.ok('GET', '/stock/take/plan', undefined, { id: byBrand })).toMatchObject({ description: '改过', takeType: 3 })
    const picker = await c.ok<{ datas: { id: string }[] }>('GET', '/selector/takestock/plan', undefined, { scId: f.scB, takeStatus: '0' })
    expect(picker.datas.map((d) => d.id)).toContain(byBrand)
    await c.ok('PATCH', '/stock/take/plan/cancel', { id: byBrand })
    await c.ok('DELETE', '/stock/take/plan', { id: byBrand })
  })

  it('counts movements during counting and settles the difference with autoChangeStock', async () => {
    const id = await c.ok<string>('POST', '/stock/take/plan', { scId: f.scA, takeType: 0 })
    expect((await lineOf(id, f.p1))).toMatchObject({ stockNum: 10, totalOutNum: 0 })
    // While counting: 3 × P1 out and 2 × P2 in in scA; moves in scB do not count.
    await c.ok('POST', '/stock/adjust/approve/pass/direct', { scId: f.scA, bizType: 2, reasonId, products: [{ productId: f.p1, stockNum: 3 }] })
    await c.ok('POST', '/stock/adjust/approve/pass/direct', { scId: f.scA, bizType: 0, reasonId, products: [{ productId: f.p2, stockNum: 2 }] })
    await c.ok('POST', '/stock/adjust/approve/pass/direct', { scId: f.scB, bizType: 0, reasonId, products: [{ productId: f.p1, stockNum: 1 }] })
    expect(await lineOf(id, f.p1)).toMatchObject({ stockNum: 10, totalOutNum: 3, totalInNum: 0 })
    expect(await lineOf(id, f.p2)).toMatchObject({ stockNum: 5, totalOutNum: 0, totalInNum: 2 })

    // Counted after the moves: P1 4 + 2 = 6 (one missing), P2 8 (one too many).
    const first = await c.ok<string>('POST', '/stock/take/sheet/approve/pass/direct', sheet(id, [{ productId: f.p1, takeNum: 4 }]))
    expect(await c.ok('GET', '/stock/take/sheet', undefined, { id: first })).toMatchObject({ status: 3, scId: f.scA })
    const second = await c.ok<string>('POST', '/stock/take/sheet', sheet(id, [{ productId: f.p1, takeNum: 2 }, { productId: f.p2, takeNum: 8 }]))
    expect((await c.call('PATCH', '/stock/take/plan/diff', { id })).body.msg).toBe('盘点任务存在未审核的库存盘点单，请优先处理库存盘点单！')
    await c.ok('PATCH', '/stock/take/sheet/approve/pass', { id: second })
    expect(await lineOf(id, f.p1)).toMatchObject({ oriTakeNum: 6 })
    // Cancel approval takes the counts back; the sheet is pending again and blocks the diff.
    await c.ok('PATCH', '/stock/take/sheet/approve/cancel', { id: second })
    expect(await lineOf(id, f.p1)).toMatchObject({ oriTakeNum: 4 })
    expect(await lineOf(id, f.p2)).toMatchObject({ oriTakeNum: 0 })
    expect((await c.call('PATCH', '/stock/take/plan/diff', { id })).body.msg).toBe('盘点任务存在未审核的库存盘点单，请优先处理库存盘点单！')
    await c.ok('PATCH', '/stock/take/sheet/approve/pass', { id: second })

    await c.ok('PATCH', '/stock/take/plan/diff', { id })
    const diff = await plan(id)
    expect(diff.takeStatus).toBe(6)
    expect(diff.details.find((d) => d.productId === f.p3)).toMatchObject({ oriTakeNum: 0, stockNum: 0 })
    // The sheet cannot change once the plan left 0.
    expect((await c.call('PUT', '/stock/take/sheet', { id: first, ...sheet(id, [{ productId: f.p1, takeNum: 1 }]) })).body.msg).toBe('库存盘点单已审核通过，无法修改！')
    expect((await c.call('PATCH', '/stock/take/sheet/approve/cancel', { id: first })).body.msg).toBe('关联盘点任务的盘点状态已改变，不允许执行取消审核！')
    expect((await c.call('POST', '/stock/take/sheet', sheet(id, [{ productId: f.p1, takeNum: 1 }]))).body.msg).toBe('关联盘点任务的盘点状态已改变，不允许进行新增！')

    const products = diff.details.map((d) => ({ productId: d.productId, takeNum: 99 }))
    expect((await c.call('PATCH', '/stock/take/plan/handle', { id, allowChangeNum: true, autoChangeStock: true, products })).body.msg).toBe(
      '系统参数发生改变，请刷新页面后重试！',
    )
    expect((await plan(id)).takeStatus).toBe(6)
    await c.ok('PATCH', '/stock/take/plan/handle', { id, allowChangeNum: false, autoChangeStock: true, products, description: '处理' })
    const done = await plan(id)
    expect(done.takeStatus).toBe(9)
    // takeNum = counted − in + out: P1 6 + 3 = 9 (snapshot 10 → 1 out), P2 8 − 2 = 6 (snapshot 5 → 1 in).
    expect(done.details.filter((d) => d.productId !== f.p3).map((d) => [d.productCode, d.takeNum])).toEqual([
      ['FP1', 9],
      ['FP2', 6],
    ])
    const p1 = await c.stock(f.p1, f.scA)
    const p2 = await c.stock(f.p2, f.scA)
    expect([p1?.stockNum, money(p1?.taxAmount), p2?.stockNum, money(p2?.taxAmount)]).toEqual([6, '60.00', 8, '160.00'])
    const logs = await c.db().selectFrom('tbl_product_stock_log').select(['biz_type', 'stock_num', 'biz_code']).where('biz_id', '=', id).orderBy('biz_type').execute()
    expect(logs.map((l) => [Number(l.biz_type), Number(l.stock_num), l.biz_code])).toEqual([
      [7, 1, done.code],
      [8, -1, done.code],
    ])
    expect((await c.call('PATCH', '/stock/take/plan/cancel', { id })).body.msg).toBe('盘点任务已完成或已作废，不允许作废！')
    await c.ok('PUT', '/stock/take/config', { allowChangeNum: true })
  })

  it('grows SIMPLE plans from their sheets, links pre-take sheets and deletes only canceled plans', async () => {
    const id = await c.ok<string>('POST', '/stock/take/plan', { scId: f.scA, takeType: 1 })
    expect((await plan(id)).details).toEqual([])
    expect((await c.call('POST', '/stock/take/pre', { scId: f.scA, takeStatus: 1, products: [{ productId: f.p1, firstNum: 5 }] })).body.msg).toBe(
      '第1行商品的复盘数量不允许为空！',
    )
    const dup = await c.call('POST', '/stock/take/pre', { scId: f.scA, takeStatus: 0, products: [{ productId: f.p1, firstNum: 5 }, { productId: f.p1, firstNum: 1 }] })
    expect(dup.body.msg).toBe('第2行商品与前面的商品重复，请检查！')
    const pre = await c.ok<string>('POST', '/stock/take/pre', { scId: f.scA, takeStatus: 2, products: [{ productId: f.p1, randNum: 5 }] })
    expect(await c.ok('GET', '/stock/take/pre', undefined, { id: pre })).toMatchObject({ takeStatus: 2, code: expect.any(String) })
    expect(await c.ok('GET', '/stock/take/pre/products', undefined, { id: pre, planId: id })).toEqual([{ productId: f.p1, takeNum: 5 }])
    const approve = await c.call('PATCH', '/stock/take/pre/approve/pass', { id: pre })
    expect([approve.status, approve.body.msg]).toEqual([400, '预先盘点单没有审核流程：保存后即可在盘点单中引用，无需审核！'])

    const sheetId = await c.ok<string>('POST', '/stock/take/sheet', sheet(id, [{ productId: f.p1, takeNum: 5 }], { preSheetId: pre }))
    expect((await plan(id)).details.map((d) => [d.productCode, d.stockNum, d.oriTakeNum])).toEqual([['FP1', 6, null]])
    expect((await c.call('DELETE', '/stock/take/pre', { id: pre })).body.msg).toBe('已有库存盘点单关联此预先盘点单，不允许执行删除操作！')
    const picker = await c.ok<{ datas: { id: string }[] }>('GET', '/selector/takestock/pre')
    expect(picker.datas.map((d) => d.id)).toContain(pre)
    await c.ok('PUT', '/stock/take/pre', { id: pre, scId: f.scA, takeStatus: 0, products: [{ productId: f.p1, firstNum: 4 }] })

    expect((await c.call('DELETE', '/stock/take/plan', { id })).body.msg).toBe('只有已作废的盘点任务才允许删除！')
    await c.ok('PATCH', '/stock/take/plan/cancel', { id })
    expect((await c.call('PATCH', '/stock/take/sheet/approve/pass', { id: sheetId })).body.msg).toBe('关联盘点任务的盘点状态已改变，不允许继续执行审核！')
    await c.ok('DELETE', '/stock/take/plan', { id })
    expect((await c.call('GET', '/stock/take/sheet', undefined, { id: sheetId })).status).toBe(404)
    await c.ok('DELETE', '/stock/take/pre', { id: pre })
  })

  it('cancels plans older than cancelHours when plans are next read', async () => {
    const id = await c.ok<string>('POST', '/stock/take/plan', { scId: f.scB, takeType: 0 })
    await c.db().updateTable('tbl_take_stock_plan').set({ create_time: dayjs().subtract(169, 'hour').format('YYYY-MM-DD HH:mm:ss') }).where('id', '=', id).execute()
    const page = await c.ok<{ datas: { id: string; takeStatus: number }[] }>('GET', '/stock/take/plan/query')
    expect(page.datas.find((d) => d.id === id)?.takeStatus).toBe(12)
  })

  it('answers the document calls the catalogue infers for pre-take sheets and the config with the reason, and changes nothing', async () => {
    const inferred = catalogueRows.filter((r) => /^\/stock\/take\/(pre|config)\b/.test(r.url))
    const served = new Set(['GET /stock/take/config', 'PUT /stock/take/config'])
    const listed = new Set(INAPPLICABLE_CALLS.map((x) => `${x.method} ${x.url}`))
    // Every inferred call not served for real is in the one list of inapplicable calls.
    const preFamily = inferred.filter((r) => r.url.startsWith('/stock/take/pre/approve'))
    const configFamily = inferred.filter((r) => r.url.startsWith('/stock/take/config') && !served.has(`${r.method} ${r.url}`))
    expect([...preFamily, ...configFamily].map((r) => `${r.method} ${r.url}`).sort()).toEqual([...listed].sort())
    const before = await c.ok('GET', '/stock/take/config')
    for (const call of INAPPLICABLE_CALLS) {
      const r = await c.call(call.method, call.url, { id: 'x', ids: ['x'], allowChangeNum: !before })
      expect([call.url, r.status, r.body.msg]).toEqual([call.url, 400, call.msg])
    }
    expect(await c.ok('GET', '/stock/take/config')).toEqual(before)
    // A clerk without the stock-taking keys is refused before the reason.
    const clerk = await userWithMenus(t, await t.login(), 'takeclerk', [])
    const r = await t.call('PATCH', '/stock/take/config/approve/pass', { token: clerk, body: { id: 'x' } })
    expect(r.status).toBe(403)
  })
})
