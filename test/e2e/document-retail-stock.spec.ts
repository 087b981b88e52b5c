import { chooseOption, expect, expectStock, test } from './helpers.js'
import { addProduct, approveFromList, docMasterData, openAdd, pick, receive, save, total } from './document-helpers.js'

/**
 * Retail out, retail return, stock cost adjust and pre-take sheet made on their document pages, then
 * 商品库存 read cell by cell: exact quantity, moving-average unit cost and value. The stock they start
 * from comes in through the API: 4 at 2.00 and 4 at 3.00, i.e. 8 worth 20.00 at 2.500000.
 */

test.describe.configure({ timeout: 90_000 })

test('retail out without a member: out at the average cost', async ({ page, api }) => {
  const f = await docMasterData(api)
  await receive(api, f, 4, '2.00')
  await receive(api, f, 4, '3.00')

  const { list, pane } = await openAdd(page, '/retail/out')
  await pick(page, pane.getByRole('textbox', { name: '仓库', exact: true }), f.sc.code)
  await addProduct(page, pane, f.product)
  await pane.getByRole('spinbutton', { name: '第1行出库数量' }).fill('3')
  await pane.getByRole('spinbutton', { name: '第1行价格' }).fill('9.90')
  await expect(total(pane, 'amount')).toHaveText('29.70')
  await save(page, pane, list, '/retail/out', f.sc.name)
  await approveFromList(page, list, f.sc.name)
  // 3 out at 2.50 = 7.50: 5 left worth 12.50, the unit cost unchanged.
  await expectStock(page, f.product, f.sc, { num: '5', price: '2.500000', amount: '12.50' })
})

test('retail return for a member without an out sheet: in at the average cost', async ({ page, api }) => {
  const f = await docMasterData(api)
  await receive(api, f, 4, '2.00')
  await receive(api, f, 4, '3.00')

  const { list, pane } = await openAdd(page, '/retail/return')
  await pick(page, pane.getByRole('textbox', { name: '仓库', exact: true }), f.sc.code)
  await pick(page, pane.getByRole('textbox', { name: '会员', exact: true }), f.member.code)
  await addProduct(page, pane, f.product)
  await pane.getByRole('spinbutton', { name: '第1行退货数量' }).fill('2')
  await pane.getByRole('spinbutton', { name: '第1行价格' }).fill('9.90')
  await expect(total(pane, 'amount')).toHaveText('19.80')
  await save(page, pane, list, '/retail/return', f.sc.name)
  await approveFromList(page, list, f.sc.name)
  // 2 back at 2.50 (not at 9.90): 10 worth 25.00.
  await expectStock(page, f.product, f.sc, { num: '10', price: '2.500000', amount: '25.00' })
})

test('stock cost adjust: approval sets the new unit cost and keeps the stock and cost before', async ({ page, api }) => {
  const f = await docMasterData(api)
  await receive(api, f, 4, '2.00')
  await receive(api, f, 4, '3.00')

  const { list, pane } = await openAdd(page, '/stock/stock-adjust/cost')
  await pick(page, pane.getByRole('textbox', { name: '仓库', exact: true }), f.sc.code)
  await addProduct(page, pane, f.product)
  await pane.getByRole('spinbutton', { name: '第1行调整后成本价' }).fill('3.00')
  await save(page, pane, list, '/stock/stock-adjust/cost', f.sc.name)
  await approveFromList(page, list, f.sc.name)
  // The sheet keeps what it changed: 8 in stock at 2.500000 before, (3.00 − 2.50) × 8 = 4.00 more value.
  const sheets = await api.get<{ datas: { id: string }[] }>('/stock/adjust/cost/query', { scId: f.sc.id })
  expect(sheets.datas).toHaveLength(1)
  const sheet = await api.get<{ status: number; details: { stockNum: number; oriPrice: string; price: string; diffAmount: string }[] }>('/stock/adjust/cost', { id: sheets.datas[0].id })
  expect(sheet.details.map((d) => [Number(d.stockNum), Number(d.oriPrice).toFixed(6), Number(d.price).toFixed(2), Number(d.diffAmount).toFixed(2)])).toEqual([[8, '2.500000', '3.00', '4.00']])
  await expectStock(page, f.product, f.sc, { num: '8', price: '3.000000', amount: '24.00' })
})

test('pre-take sheet counted on its page feeds the take sheet of a plan; the handled difference corrects the stock', async ({ page, api }) => {
  const f = await docMasterData(api)
  await receive(api, f, 4, '2.00')
  await receive(api, f, 4, '3.00')

  await test.step('the pre-take sheet: warehouse, 初盘, the product counted 6, saved (it has no approval)', async () => {
    const { list, pane } = await openAdd(page, '/stock/take/pre')
    await pick(page, pane.getByRole('textbox', { name: '仓库', exact: true }), f.sc.code)
    await chooseOption(page, pane, '盘点状态', '初盘')
    await addProduct(page, pane, f.product)
    await pane.getByRole('spinbutton', { name: '第1行初盘数量' }).fill('6')
    await save(page, pane, list, '/stock/take/pre', f.sc.name)
  })
  const pre = await api.get<{ datas: { id: string; code: string }[] }>('/stock/take/pre/query', { scId: f.sc.id })
  expect(pre.datas).toHaveLength(1)
  const preCode = pre.datas[0].code
  // The count is stored as typed.
  expect(await api.get('/stock/take/pre/products', { id: pre.datas[0].id })).toEqual([{ productId: f.product.id, takeNum: 6 }])

  // A single-product plan for the warehouse (API): it grows from its take sheets.
  const planId = await api.post<string>('/stock/take/plan', { scId: f.sc.id, takeType: 1 })
  const planCode = (await api.get<{ code: string }>('/stock/take/plan', { id: planId })).code

  await test.step('a take sheet of the plan takes its count from the pre-take sheet; approved', async () => {
    const { list, pane } = await openAdd(page, '/stock/take/sheet')
    const planLoaded = page.waitForResponse((r) => r.url().includes('/stock/take/plan/products'))
    await pick(page, pane.getByRole('textbox', { name: '盘点任务', exact: true }), planCode)
    await planLoaded
    const preLoaded = page.waitForResponse((r) => r.url().includes('/stock/take/pre/products'))
    await pick(page, pane.getByRole('textbox', { name: '预先盘点单', exact: true }), preCode)
    await preLoaded
    await expect(pane.locator('.document-lines .ant-table-row')).toHaveCount(1)
    await expect(pane.locator('.document-lines .ant-table-row').first()).toContainText(f.product.name)
    await expect(pane.getByRole('spinbutton', { name: '第1行盘点数量' })).toHaveValue('6')
    await save(page, pane, list, '/stock/take/sheet', planCode)
    await approveFromList(page, list, planCode)
  })

  await test.step('the difference generated and handled (API): 2 missing, out at the average cost', async () => {
    await api.patch('/stock/take/plan/diff', { id: planId })
    const plan = await api.get<{ takeStatus: number; details: { productId: string; stockNum: number; oriTakeNum: number }[] }>('/stock/take/plan/detail', { id: planId })
    expect(plan.takeStatus).toBe(6)
    expect(plan.details.map((d) => [d.productId, d.stockNum, d.oriTakeNum])).toEqual([[f.product.id, 8, 6]])
    // The handle call must repeat the configuration it was shown.
    const config = await api.get<{ allowChangeNum: boolean; autoChangeStock: boolean }>('/stock/take/config')
    await api.patch('/stock/take/plan/handle', {
      id: planId,
      allowChangeNum: config.allowChangeNum,
      autoChangeStock: config.autoChangeStock,
      products: [{ productId: f.product.id, takeNum: 6 }],
    })
  })
  // 8 − 2 at 2.50: 6 worth 15.00.
  await expectStock(page, f.product, f.sc, { num: '6', price: '2.500000', amount: '15.00' })
})
