import type { Locator, Page } from '@playwright/test'
import { expect, openScreen, rowOf, test } from './helpers.js'
import { docMasterData, fillDate, openAdd, pick, receive } from './document-helpers.js'

/**
 * What a document's tables show at 1440 × 900 (the config's viewport): each line the stock of its
 * product in the chosen warehouse, read once per table; a fixed 操作 column that covers no input; and
 * document lists whose 状态 and 总金额 are in view without scrolling sideways.
 */

test.describe.configure({ timeout: 120_000 })

const STOCK_CALL = '/cloud-api/stock/product/warehouseStock'

/** The 可用库存 cell of the line of this product. */
const stockOf = (pane: Locator, productName: string): Locator =>
  pane.locator('.document-lines .ant-table-row').filter({ hasText: productName }).locator('[data-line-stock]')

/** Whether the centre of `target` is the topmost element there (nothing, such as a sticky column, is drawn over it). */
async function onTop(page: Page, target: Locator): Promise<boolean> {
  const box = await target.boundingBox()
  if (!box) return false
  const handle = await target.elementHandle()
  return page.evaluate(
    ([x, y, el]) => {
      const top = document.elementFromPoint(x, y)
      return Boolean(top && el && (top === el || el.contains(top)))
    },
    [box.x + box.width / 2, box.y + box.height / 2, handle] as const,
  )
}

test('sale order lines show the warehouse stock, one request per table, again when the warehouse changes', async ({ page, api }) => {
  const f = await docMasterData(api)
  await receive(api, f, 7, '1.00')
  const first = await api.get<{ categoryId: string; brandId: string }>('/basedata/product', { id: f.product.id })
  const other = { code: `Q${f.s}`, name: `无库存商品${f.s}` }
  await api.post('/basedata/product', { ...other, skuCode: `KQ${f.s}`, categoryId: first.categoryId, brandId: first.brandId, productType: 1, taxRate: 0, saleTaxRate: 0, purchasePrice: '1.00', salePrice: '2.00', retailPrice: '2.00' })
  const empty = { code: `E${f.s}`, name: `空仓${f.s}` }
  await api.post('/basedata/storecenter', empty)

  // What each stock call answered (the request body of a fetch is not always visible to the page's listener).
  const asked: unknown[][] = []
  page.on('response', async (r) => {
    if (r.url().endsWith(STOCK_CALL) && r.request().method() === 'POST') asked.push(((await r.json()) as { data: unknown[] }).data)
  })
  const { pane } = await openAdd(page, '/sale/order')
  await pick(page, pane.getByRole('textbox', { name: '仓库', exact: true }), f.sc.code)
  // Both products in one pick: one request names both.
  await pane.getByRole('button', { name: '添加商品' }).click()
  const picker = page.getByRole('dialog', { name: '选择商品' })
  await picker.getByPlaceholder('请输入编号').fill(f.s)
  await picker.getByRole('button', { name: '查询', exact: true }).click()
  await rowOf(picker, f.product.code).click()
  await rowOf(picker, other.code).click()
  await picker.getByRole('button', { name: '确定', exact: true }).click()
  await expect(picker).toBeHidden()
  await expect(pane.locator('.document-lines thead th').filter({ hasText: '可用库存' })).toHaveCount(1)
  await expect(stockOf(pane, f.product.name)).toHaveText('7')
  await expect(stockOf(pane, other.name)).toHaveText('0')
  await expect.poll(() => asked.length).toBe(1)
  expect(asked[0]).toHaveLength(2)

  // Another warehouse: the figures follow it, again in one request.
  await pick(page, pane.getByRole('textbox', { name: '仓库', exact: true }), empty.code)
  await expect(stockOf(pane, f.product.name)).toHaveText('0')
  await expect(stockOf(pane, other.name)).toHaveText('0')
  await expect.poll(() => asked.length).toBe(2)
  expect(asked[1]).toHaveLength(2)
})

test('the 结算单 line table keeps 优惠金额 clear of the fixed 操作 column', async ({ page, api }) => {
  const f = await docMasterData(api)
  const receipt = await receive(api, f, 4, '2.00')
  const today = new Date().toISOString().slice(0, 10)
  const check = await api.post<string>('/settle/checksheet/approve/pass/direct', {
    supplierId: f.supplier.id,
    startDate: today,
    endDate: today,
    products: [{ bizId: receipt, payAmount: '8.00' }],
  })
  const checkCode = (await api.get<{ code: string }>('/settle/checksheet', { id: check })).code

  const { pane } = await openAdd(page, '/settle/supplier/sheet')
  await pick(page, pane.getByRole('textbox', { name: '供应商', exact: true }), f.supplier.code)
  await fillDate(page, pane, '起始日期', '2026-01-01')
  await fillDate(page, pane, '截止日期', '2099-12-31')
  await pane.getByRole('button', { name: '添加对账单' }).click()
  const dialog = page.getByRole('dialog', { name: '选择对账单' })
  await dialog.getByRole('checkbox', { name: `选择${checkCode}` }).check()
  await dialog.getByRole('button', { name: '确定', exact: true }).click()
  await expect(dialog).toBeHidden()

  const discount = pane.getByRole('spinbutton', { name: '第1行优惠金额' })
  const paid = pane.getByRole('spinbutton', { name: '第1行实付金额' })
  const remark = pane.getByRole('textbox', { name: '第1行备注' })
  for (const input of [paid, discount, remark]) {
    await expect(input).toBeVisible()
    await expect.poll(() => onTop(page, input), { timeout: 10_000 }).toBe(true)
  }
  for (const title of ['实付金额', '优惠金额', '操作']) await expect.poll(() => onTop(page, pane.locator('.document-lines thead th').filter({ hasText: title }).first())).toBe(true)
  // The clerk types into it, and 删除 is still there.
  await discount.fill('0.50')
  await expect(discount).toHaveValue('0.50')
  await expect(pane.getByRole('button', { name: '删除第1行' })).toBeVisible()
})

for (const path of ['/purchase/order', '/sale/out']) {
  test(`the ${path} list shows 状态 and 总金额 at 1440 px without scrolling sideways`, async ({ page }) => {
    const list = await openScreen(page, path)
    const viewport = page.viewportSize()!
    const body = list.locator('.ant-table-content, .ant-table-body').first()
    await expect(body).toBeVisible()
    expect(await body.evaluate((el) => el.scrollLeft)).toBe(0)
    for (const title of ['状态', '总金额']) {
      const header = list.locator('thead th').filter({ hasText: new RegExp(`^${title}$`) }).first()
      await expect(header).toBeVisible()
      const box = (await header.boundingBox())!
      expect(box.x + box.width, `${title} ends inside the window`).toBeLessThanOrEqual(viewport.width)
      // Not under the fixed 操作 column either.
      expect(await onTop(page, header), `${title} is not covered`).toBe(true)
    }
  })
}
