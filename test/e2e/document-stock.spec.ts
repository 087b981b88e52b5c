import { chooseOption, expect, expectCells, expectStock as expectStockOf, openScreen, paneOf, rowOf, searchPicker, test, toast, uniqueSuffix, type AdminApi } from './helpers.js'
import type { Locator, Page } from '@playwright/test'

/**
 * Stock documents on the real server: a stock adjust in, approved, seen in 商品库存; a warehouse
 * transfer received in two parts on its receive page; a stock-taking plan counted by a take sheet,
 * its difference generated and handled, the stock corrected. Master data through the API.
 */

interface Fixtures {
  s: string
  scA: { id: string; code: string; name: string }
  scB: { id: string; code: string; name: string }
  product: { id: string; code: string; name: string }
  reason: { id: string; code: string }
}

async function masterData(api: AdminApi): Promise<Fixtures> {
  const s = uniqueSuffix()
  const sc = async (n: string) => ({ id: await api.post<string>('/basedata/storecenter', { code: `W${s}${n}`, name: `仓${n}${s}` }), code: `W${s}${n}`, name: `仓${n}${s}` })
  const scA = await sc('A')
  const scB = await sc('B')
  const categoryId = await api.post<string>('/basedata/product/category', { code: `C${s}`, name: `类目${s}` })
  const brandId = await api.post<string>('/basedata/product/brand', { code: `B${s}`, name: `品牌${s}` })
  const code = `P${s}`
  const name = `盘点商品${s}`
  const id = await api.post<string>('/basedata/product', {
    code,
    name,
    skuCode: `K${s}`,
    categoryId,
    brandId,
    productType: 1,
    taxRate: 0,
    saleTaxRate: 0,
    purchasePrice: '2.00',
    salePrice: '3.00',
    retailPrice: '3.00',
  })
  const reason = { id: await api.post<string>('/stock/adjust/reason', { code: `R${s}`, name: `损溢${s}` }), code: `R${s}` }
  return { s, scA, scB, product: { id, code, name }, reason }
}

/** Stock in through an approved adjust (API), so the screens under test start from a known quantity. */
const stockIn = (api: AdminApi, f: Fixtures, scId: string, num: number) =>
  api.post('/stock/adjust/approve/pass/direct', { scId, bizType: 0, reasonId: f.reason.id, products: [{ productId: f.product.id, stockNum: num }] })

async function pick(page: Page, input: Locator, code: string) {
  await input.click()
  const picker = page.getByRole('dialog', { name: /^选择/ })
  await searchPicker(picker, code)
  await rowOf(picker, code).dblclick()
  await expect(picker).toBeHidden()
  // A single pick shows the chosen record's code, then its name when it has one.
  await expect(input).toHaveValue(new RegExp(`^${code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( |$)`))
}

async function addProduct(page: Page, pane: Locator, code: string) {
  await pane.getByRole('button', { name: '添加商品' }).click()
  const picker = page.getByRole('dialog', { name: '选择商品' })
  await searchPicker(picker, code)
  await rowOf(picker, code).click()
  await picker.getByRole('button', { name: '确定', exact: true }).click()
  await expect(picker).toBeHidden()
}

/** 商品库存 of the test's product in one warehouse: quantity, unit cost and value, exactly. */
const expectStock = (page: Page, f: Fixtures, sc: { name: string }, num: string, price: string, amount: string) =>
  expectStockOf(page, f.product, sc, { num, price, amount })

const visiblePane = (page: Page) => page.locator('.shell-pane:visible')

test('stock adjust in: add, approve from the list, 商品库存 shows it', async ({ page, api }) => {
  test.setTimeout(90_000)
  const f = await masterData(api)
  const list = await openScreen(page, '/stock/stock-adjust')
  await list.getByRole('button', { name: '新增', exact: true }).click()
  await expect(page).toHaveURL(/\/stock\/stock-adjust\/add$/)
  const pane = paneOf(page, '/stock/stock-adjust/add')
  await pick(page, pane.getByRole('textbox', { name: '仓库', exact: true }), f.scA.code)
  await chooseOption(page, pane, '业务类型', '入库')
  await pick(page, pane.getByRole('textbox', { name: '调整原因', exact: true }), f.reason.code)
  await addProduct(page, pane, f.product.code)
  await pane.getByRole('spinbutton', { name: '第1行调整库存数量' }).fill('5')
  await pane.getByRole('button', { name: '保存', exact: true }).click()
  await expect(toast(page, '新增成功！')).toBeVisible()

  const row = rowOf(list, f.scA.name)
  await expect(row).toContainText('待审核')
  await row.getByRole('button', { name: '审核', exact: true }).click()
  await visiblePane(page).getByRole('button', { name: '审核通过', exact: true }).click()
  await expect(toast(page, '审核通过！')).toBeVisible()
  await expect(rowOf(list, f.scA.name)).toContainText('审核通过')
  // No stock row before: in at the purchase price 2.00.
  await expectStock(page, f, f.scA, '5', '2.000000', '10.00')
})

test('transfer: approved, received in two parts on its receive page, target stock', async ({ page, api }) => {
  test.setTimeout(90_000)
  const f = await masterData(api)
  await stockIn(api, f, f.scA.id, 10)
  await api.post('/stock/transfer/sc', { sourceScId: f.scA.id, targetScId: f.scB.id, products: [{ productId: f.product.id, transferNum: 5 }] })

  const list = await openScreen(page, '/stock/stock-transfer')
  const row = () => rowOf(list, f.scB.name)
  await expect(row()).toContainText('待审核')
  await expect(row().getByRole('button', { name: '收货', exact: true })).toHaveCount(0)
  await row().getByRole('button', { name: '审核', exact: true }).click()
  await visiblePane(page).getByRole('button', { name: '审核通过', exact: true }).click()
  await expect(toast(page, '审核通过！')).toBeVisible()
  await expect(row()).toContainText('审核通过')

  await row().getByRole('button', { name: '收货', exact: true }).click()
  await expect(page).toHaveURL(/\/stock\/stock-transfer\/receive\//)
  const receive = visiblePane(page)
  await expect(receive).toContainText(f.scB.name)
  const line = receive.locator('.ant-table-row').filter({ hasText: f.product.code }).first()
  await expect(line.locator('[data-remaining]')).toHaveText('5')
  await receive.getByRole('spinbutton', { name: '第1行本次收货数量' }).fill('2')
  await receive.getByRole('button', { name: '确认收货' }).click()
  await expect(toast(page, '收货成功！')).toBeVisible()
  await expect(receive).toContainText('部分收货')
  await expect(line.locator('[data-remaining]')).toHaveText('3')
  await expect(receive.getByLabel('收货记录').locator('.ant-table-row')).toHaveCount(1)

  await receive.getByRole('spinbutton', { name: '第1行本次收货数量' }).fill('3')
  await receive.getByRole('button', { name: '确认收货' }).click()
  await expect(page).toHaveURL(/\/stock\/stock-transfer$/)
  await expect(row()).toContainText('已收货')
  await expect(row().getByRole('button', { name: '收货', exact: true })).toHaveCount(0)
  await expectStock(page, f, f.scB, '5', '2.000000', '10.00')
  // The source warehouse gave 5 of its 10 at the same cost.
  await expectStock(page, f, f.scA, '5', '2.000000', '10.00')
})

test('stock-taking: a plan, a counted take sheet approved, diff generated and handled, stock corrected', async ({ page, api }) => {
  test.setTimeout(120_000)
  const f = await masterData(api)
  await stockIn(api, f, f.scA.id, 10)

  const plans = await openScreen(page, '/stock/take/plan')
  await plans.getByRole('button', { name: '新增', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: '新增盘点任务' })
  await pick(page, dialog.getByRole('textbox', { name: '仓库', exact: true }), f.scA.code)
  await chooseOption(page, dialog, '盘点类别', '单品盘点')
  await dialog.getByRole('button', { name: /保\s*存/ }).click()
  await expect(toast(page, '新增成功！')).toBeVisible()
  const planRow = () => rowOf(plans, f.scA.name)
  await expect(planRow()).toContainText('盘点任务生成')
  const planCode = (await planRow().locator('td').nth(1).innerText()).trim()

  const sheets = await openScreen(page, '/stock/take/sheet')
  await sheets.getByRole('button', { name: '新增', exact: true }).click()
  const sheet = paneOf(page, '/stock/take/sheet/add')
  const planLoaded = page.waitForResponse((r) => r.url().includes('/stock/take/plan/products'))
  await pick(page, sheet.getByRole('textbox', { name: '盘点任务', exact: true }), planCode)
  await planLoaded
  await addProduct(page, sheet, f.product.code)
  await sheet.getByRole('spinbutton', { name: '第1行盘点数量' }).fill('8')
  await sheet.getByRole('button', { name: '保存', exact: true }).click()
  await expect(toast(page, '新增成功！')).toBeVisible()
  const sheetRow = rowOf(sheets, planCode)
  await sheetRow.getByRole('button', { name: '审核', exact: true }).click()
  await visiblePane(page).getByRole('button', { name: '审核通过', exact: true }).click()
  await expect(toast(page, '审核通过！')).toBeVisible()
  await expect(rowOf(sheets, planCode)).toContainText('审核通过')
  await expect(rowOf(sheets, planCode).getByRole('button', { name: '取消审核', exact: true })).toBeVisible()

  const again = await openScreen(page, '/stock/take/plan')
  const row = rowOf(again, planCode)
  await row.getByRole('button', { name: '生成差异' }).click()
  await page.locator('.ant-popconfirm:visible').getByRole('button', { name: /确\s*定/ }).click()
  await expect(toast(page, '差异生成成功！')).toBeVisible()
  await expect(rowOf(again, planCode)).toContainText('盘点差异生成')

  await rowOf(again, planCode).getByRole('button', { name: '处理差异' }).click()
  const handle = page.getByRole('dialog', { name: '处理差异' })
  const line = handle.locator('.ant-table-row').filter({ hasText: f.product.code })
  await expectCells(line, { 系统库存: '10', 盘点数量: '8' })
  await expect(handle.getByRole('spinbutton', { name: '第1行最终盘点数量' })).toHaveValue('8')
  await expectCells(line, { 差异数量: '-2' })
  await handle.getByRole('button', { name: '确认处理' }).click()
  await expect(toast(page, '差异处理成功！')).toBeVisible()
  await expect(rowOf(again, planCode)).toContainText('盘点完成')
  await expectStock(page, f, f.scA, '8', '2.000000', '16.00')
})

/** Opens each list, then its add page, which must show a header field and the line table. */
async function openAdds(page: Page, screens: [string, string][]) {
  for (const [path, field] of screens) {
    const list = await openScreen(page, path)
    await list.getByRole('button', { name: '新增', exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`${path}/add$`))
    const add = paneOf(page, `${path}/add`)
    await expect(add.getByText(field, { exact: true }).first()).toBeVisible()
    await expect(add.getByRole('button', { name: '添加商品' })).toBeVisible()
  }
}

// Small groups, so each stays well inside its time on a busy machine.
const MENU_GROUPS: Record<string, [string, string][]> = {
  purchase: [
    ['/purchase/order', '供应商'],
    ['/purchase/receive', '供应商'],
    ['/purchase/return', '供应商'],
  ],
  sale: [
    ['/sale/order', '客户'],
    ['/sale/out', '客户'],
    ['/sale/return', '客户'],
  ],
  retail: [
    ['/retail/out', '仓库'],
    ['/retail/return', '仓库'],
  ],
  stock: [
    ['/stock/stock-adjust', '调整原因'],
    ['/stock/stock-adjust/cost', '仓库'],
    ['/stock/stock-transfer', '转入仓库'],
  ],
}
for (const [group, screens] of Object.entries(MENU_GROUPS))
  test(`${group} document menus open their lists and add pages`, async ({ page }) => {
    test.setTimeout(90_000)
    await openAdds(page, screens)
  })

test('take sheet and pre-take sheet add pages: the pre-take sheet shows the count of its take status only', async ({ page }) => {
  test.setTimeout(90_000)
  await openAdds(page, [
    ['/stock/take/sheet', '盘点任务'],
    ['/stock/take/pre', '盘点状态'],
  ])
  const pre = paneOf(page, '/stock/take/pre/add')
  await chooseOption(page, pre, '盘点状态', '复盘')
  await expect(pre.locator('.document-lines thead')).toContainText('复盘数量')
  await expect(pre.locator('.document-lines thead')).not.toContainText('初盘数量')
})

test('盘点参数设置 saves: the value reads back after a reload and from the server', async ({ page, api }) => {
  test.setTimeout(90_000)
  const label = '盘点任务创建后多少小时内未完成，则自动作废'
  const save = async (hours: string) => {
    const config = await openScreen(page, '/stock/take/config')
    const cancelHours = config.getByRole('spinbutton', { name: label })
    // The form shows the stored value first (the other value than the one about to be saved).
    await expect(cancelHours).not.toHaveValue('')
    await cancelHours.fill(hours)
    const saved = page.waitForResponse((r) => r.url().includes('/cloud-api/stock/take/config') && r.request().method() === 'PUT')
    await config.getByRole('button', { name: /保\s*存/ }).click()
    expect((await (await saved).json()).code).toBe(200)
    await expect(toast(page, '保存成功！')).toBeVisible()
    // Read back: a fresh page load shows the stored value, and so does the server.
    await page.reload()
    await expect(paneOf(page, '/stock/take/config').getByRole('spinbutton', { name: label })).toHaveValue(hours)
    expect((await api.get<{ cancelHours: number }>('/stock/take/config')).cancelHours).toBe(Number(hours))
  }
  expect((await api.get<{ cancelHours: number }>('/stock/take/config')).cancelHours).toBe(168)
  await save('170')
  await save('168')
})
