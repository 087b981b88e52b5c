import { expect, expectStock, openMenu, openScreen, paneOf, rowOf, searchPicker, test, toast, uniqueSuffix, type AdminApi, expectPicked } from './helpers.js'
import type { Locator, Page } from '@playwright/test'
import { addPayment } from './document-helpers.js'

/**
 * Purchase documents rendered from their files on the real server: an order with two products from
 * the product picker, live totals and an agreed payment, approved from the list; a receive sheet
 * filled from that order and approved; the stock it brought in; a refused order and its timeline.
 */

interface Fixtures {
  s: string
  sc: { id: string; code: string; name: string }
  supplier: { id: string; code: string }
  products: { id: string; code: string; name: string }[]
  payType: string
  payTypeId: string
  customer: { id: string; code: string }
}

async function masterData(api: AdminApi): Promise<Fixtures> {
  const s = uniqueSuffix()
  const sc = { id: await api.post<string>('/basedata/storecenter', { code: `W${s}`, name: `一号仓${s}` }), code: `W${s}`, name: `一号仓${s}` }
  const supplierId = await api.post<string>('/basedata/supplier', { code: `S${s}`, name: `供应商${s}`, mnemonicCode: 'GYS', settleType: 1, manageType: 1 })
  const payType = `现金${s}`
  const payTypeId = await api.post<string>('/basedata/paytype', { code: `T${s}`, name: payType, recText: false })
  const customerId = await api.post<string>('/basedata/customer', { code: `K${s}`, name: `客户${s}`, mnemonicCode: 'KH', settleType: 1 })
  const categoryId = await api.post<string>('/basedata/product/category', { code: `C${s}`, name: `类目${s}` })
  const brandId = await api.post<string>('/basedata/product/brand', { code: `B${s}`, name: `品牌${s}` })
  const products = []
  for (const n of [1, 2]) {
    const code = `P${s}${n}`
    const name = `商品${s}${n}`
    const id = await api.post<string>('/basedata/product', {
      code,
      name,
      skuCode: `K${s}${n}`,
      categoryId,
      brandId,
      productType: 1,
      taxRate: 17,
      saleTaxRate: 17,
      purchasePrice: '1.00',
      salePrice: '2.00',
      retailPrice: '2.00',
    })
    products.push({ id, code, name })
  }
  return { s, sc, supplier: { id: supplierId, code: `S${s}` }, products, payType, payTypeId, customer: { id: customerId, code: `K${s}` } }
}

/** Chooses one row by its code in the picker a form input opens. */
async function pick(page: Page, input: Locator, dialogTitle: string, code: string) {
  await input.click()
  const picker = page.getByRole('dialog', { name: dialogTitle })
  await searchPicker(picker, code)
  await rowOf(picker, code).dblclick()
  await expect(picker).toBeHidden()
  // A single pick shows the chosen record's code, then its name when it has one.
  await expect(input).toHaveValue(new RegExp(`^${code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( |$)`))
}

const total = (pane: Locator, name: string) => pane.locator(`[data-total="${name}"]`)

async function newOrder(page: Page, f: Fixtures, lines: { qty: string; price: string }[]) {
  const list = await openMenu(page, '采购管理', '采购订单管理', '/purchase/order')
  await list.getByRole('button', { name: '新增', exact: true }).click()
  await expect(page).toHaveURL(/\/purchase\/order\/add$/)
  const pane = paneOf(page, '/purchase/order/add')
  await pick(page, pane.getByRole('textbox', { name: '仓库', exact: true }), '选择仓库', f.sc.code)
  await pick(page, pane.getByRole('textbox', { name: '供应商', exact: true }), '选择供应商', f.supplier.code)

  await pane.getByRole('button', { name: '添加商品' }).click()
  const picker = page.getByRole('dialog', { name: '选择商品' })
  await searchPicker(picker, ...f.products.slice(0, lines.length).map((p) => p.code))
  for (const p of f.products.slice(0, lines.length)) await rowOf(picker, p.code).click()
  await picker.getByRole('button', { name: '确定', exact: true }).click()
  await expect(picker).toBeHidden()
  for (const [i, l] of lines.entries()) {
    await expect(pane.locator('.document-lines .ant-table-row').nth(i)).toContainText(f.products[i].name)
    await pane.getByRole('spinbutton', { name: `第${i + 1}行采购数量` }).fill(l.qty)
    await pane.getByRole('spinbutton', { name: `第${i + 1}行采购价` }).fill(l.price)
  }
  return pane
}

test('purchase order → approve → receive sheet from the order → stock → sale out → stock and cost @pg', async ({ page, api }) => {
  test.setTimeout(150_000)
  const f = await masterData(api)

  const pane = await newOrder(page, f, [
    { qty: '3', price: '2.50' },
    { qty: '4', price: '0.10' },
  ])
  await test.step('the totals follow the lines', async () => {
    await expect(total(pane, 'num')).toHaveText('7')
    await expect(total(pane, 'amount')).toHaveText('7.90')
    await pane.getByRole('spinbutton', { name: '第2行采购价' }).fill('0')
    await pane.getByRole('spinbutton', { name: '第2行采购价' }).blur()
    await expect(total(pane, 'num')).toHaveText('3')
    await expect(total(pane, 'giftNum')).toHaveText('4')
    await expect(total(pane, 'amount')).toHaveText('7.50')
    await pane.getByRole('spinbutton', { name: '第2行采购价' }).fill('0.10')
    await expect(total(pane, 'amount')).toHaveText('7.90')
  })

  await test.step('an agreed payment equal to the total, then save', async () => {
    await addPayment(page, pane, f.payType)
    await expect(pane.getByRole('spinbutton', { name: '第1个支付金额' })).toHaveValue('7.90')
    await expect(pane.getByLabel('约定支付合计')).toContainText('支付金额合计：7.90 / 总金额：7.90')
    await pane.getByRole('button', { name: '保存', exact: true }).click()
    await expect(toast(page, '新增成功！')).toBeVisible()
    await expect(page).toHaveURL(/\/purchase\/order$/)
  })

  let orderCode = ''
  await test.step('approve it from the list', async () => {
    const list = paneOf(page, '/purchase/order')
    const row = rowOf(list, f.sc.name).first()
    await expect(row).toContainText('待审核')
    await expect(row).toContainText('7.90')
    orderCode = (await row.locator('td').nth(2).innerText()).trim()
    await row.getByRole('button', { name: '审核', exact: true }).click()
    await expect(page).toHaveURL(/\/purchase\/order\/approve\//)
    const approve = page.locator('.shell-pane:visible')
    await expect(approve.getByText(f.products[0].name)).toBeVisible()
    await approve.getByRole('button', { name: '审核通过', exact: true }).click()
    await expect(toast(page, '审核通过！')).toBeVisible()
    await expect(rowOf(list, orderCode)).toContainText('审核通过')
    await expect(rowOf(list, orderCode).getByRole('button', { name: '修改' })).toHaveCount(0)
  })

  await test.step('a receive sheet from the order: its lines load with the remaining quantities', async () => {
    const list = await openMenu(page, '采购管理', '采购收货管理', '/purchase/receive')
    await list.getByRole('button', { name: '新增', exact: true }).click()
    const sheet = paneOf(page, '/purchase/receive/add')
    const orderInput = sheet.getByRole('textbox', { name: '采购订单', exact: true })
    await orderInput.click()
    const picker = page.getByRole('dialog', { name: '选择采购订单' })
    await rowOf(picker, orderCode).dblclick()
    await expect(picker).toBeHidden()
    await expect(sheet.getByRole('spinbutton', { name: '第1行收货数量' })).toHaveValue('3')
    await expect(sheet.getByRole('spinbutton', { name: '第2行收货数量' })).toHaveValue('4')
    await expectPicked(sheet.getByRole('textbox', { name: '仓库', exact: true }), f.sc.code, f.sc.name)
    await expect(total(sheet, 'amount')).toHaveText('7.90')
    await sheet.getByRole('button', { name: '保存', exact: true }).click()
    await expect(toast(page, '新增成功！')).toBeVisible()
    const row = rowOf(list, f.sc.name)
    await expect(row).toContainText('待审核')
    await row.getByRole('button', { name: '审核', exact: true }).click()
    await page.locator('.shell-pane:visible').getByRole('button', { name: '审核通过', exact: true }).click()
    await expect(toast(page, '审核通过！')).toBeVisible()
    await expect(rowOf(list, f.sc.name)).toContainText('审核通过')
  })

  await test.step('商品库存 shows the received quantity and unit cost', async () => {
    // 3 at 2.50 received (the second product is another row): 7.50 in stock.
    await expectStock(page, f.products[0], f.sc, { num: '3', price: '2.500000', amount: '7.50' })
  })

  await test.step('a sale out of 2 at 4.00, approved, takes them out at the average cost', async () => {
    const list = await openScreen(page, '/sale/out')
    await list.getByRole('button', { name: '新增', exact: true }).click()
    const sheet = paneOf(page, '/sale/out/add')
    await pick(page, sheet.getByRole('textbox', { name: '仓库', exact: true }), '选择仓库', f.sc.code)
    await pick(page, sheet.getByRole('textbox', { name: '客户', exact: true }), '选择客户', f.customer.code)
    await sheet.getByRole('button', { name: '添加商品' }).click()
    const picker = page.getByRole('dialog', { name: '选择商品' })
    await searchPicker(picker, f.products[0].code)
    await rowOf(picker, f.products[0].code).click()
    await picker.getByRole('button', { name: '确定', exact: true }).click()
    await sheet.getByRole('spinbutton', { name: '第1行出库数量' }).fill('2')
    await sheet.getByRole('spinbutton', { name: '第1行价格' }).fill('4.00')
    await expect(total(sheet, 'amount')).toHaveText('8.00')
    await sheet.getByRole('button', { name: '保存', exact: true }).click()
    await expect(toast(page, '新增成功！')).toBeVisible()
    const row = rowOf(list, f.sc.name)
    await expect(row).toContainText('待审核')
    await row.getByRole('button', { name: '审核', exact: true }).click()
    await page.locator('.shell-pane:visible').getByRole('button', { name: '审核通过', exact: true }).click()
    await expect(toast(page, '审核通过！')).toBeVisible()
    await expect(rowOf(list, f.sc.name)).toContainText('审核通过')

    // 3 in at 2.50 = 7.50; 2 out at the average cost 5.00 → 1 left worth 2.50, unit cost unchanged.
    await expectStock(page, f.products[0], f.sc, { num: '1', price: '2.500000', amount: '2.50' })
  })
})

test('refuse an order with a reason: the list shows it refused and the timeline shows the reason', async ({ page, api }) => {
  test.setTimeout(60_000)
  const f = await masterData(api)
  await api.post('/purchase/order', {
    scId: f.sc.id,
    supplierId: f.supplier.id,
    products: [{ productId: f.products[0].id, orderNum: 1, taxPrice: '5.00', taxRate: 0 }],
    payTypes: [{ id: f.payTypeId, payAmount: '5.00' }],
  })
  const list = await openMenu(page, '采购管理', '采购订单管理', '/purchase/order')
  await rowOf(list, f.sc.name).getByRole('button', { name: '审核', exact: true }).click()
  const approve = page.locator('.shell-pane:visible')
  await expect(approve.getByText(f.products[0].name)).toBeVisible()
  await approve.getByRole('button', { name: '审核拒绝', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: '审核拒绝' })
  await dialog.getByRole('button', { name: /确\s*定/ }).click()
  await expect(dialog.getByText('请输入拒绝理由')).toBeVisible()
  await dialog.getByRole('textbox', { name: '拒绝理由' }).fill('价格不对')
  await dialog.getByRole('button', { name: /确\s*定/ }).click()
  await expect(toast(page, '审核拒绝！')).toBeVisible()
  const refused = rowOf(list, f.sc.name)
  await expect(refused).toContainText('审核拒绝')
  // A refused order may be modified again.
  await expect(refused.getByRole('button', { name: '修改', exact: true })).toBeVisible()
  await refused.getByRole('button', { name: '查看', exact: true }).click()
  const detail = page.locator('.shell-pane:visible')
  await expect(detail).toContainText('拒绝理由：价格不对')
  const timeline = detail.getByLabel('单据时间线')
  await expect(timeline).toContainText('审核拒绝')
  await expect(timeline).toContainText('价格不对')
  // Only the latest entry until expanded.
  await expect(timeline.locator('.ant-timeline-item')).toHaveCount(1)
  await timeline.getByRole('button', { name: /展开/ }).click()
  await expect(timeline.locator('.ant-timeline-item')).toHaveCount(2)
})
