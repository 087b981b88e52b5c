import type { Locator, Page } from '@playwright/test'
import { confirmBox, expect, expectCells, paneOf, rowOf, searchPicker, test, toast, uniqueSuffix, type AdminApi, expectPicked } from './helpers.js'
import { addPayment, docMasterData, openAdd, pick, total, type DocFixtures, type Named } from './document-helpers.js'

/**
 * Entering documents without fighting them (issue 17): lines start from the product master (prices,
 * tax rate), the product picker shows the warehouse's stock, price / discount rate / original price
 * follow each other, header pickers show code and name, and an order without agreed payment is
 * warned about at save and can be given one on its approval page.
 */

test.describe.configure({ timeout: 90_000 })

/** A product sold at 12.50 (retail 13.90), bought at 8.40, taxed 13% / 9% — today's mainland rates. */
async function vatProduct(api: AdminApi, f: DocFixtures): Promise<Named> {
  const s = uniqueSuffix()
  const product = await api.get<{ categoryId: string; brandId: string }>('/basedata/product', { id: f.product.id })
  const body = {
    code: `V${s}`, name: `增值税商品${s}`, skuCode: `VS${s}`, categoryId: product.categoryId, brandId: product.brandId, productType: 1,
    taxRate: 13, saleTaxRate: 9, purchasePrice: '8.40', salePrice: '12.50', retailPrice: '13.90',
  }
  return { id: await api.post<string>('/basedata/product', body), code: body.code, name: body.name }
}

/** 6 of the product into the warehouse: an order approved directly, received in full. */
async function stockIn(api: AdminApi, f: DocFixtures, product: Named, num: number): Promise<void> {
  const orderId = await api.post<string>('/purchase/order/approve/pass/direct', {
    scId: f.sc.id, supplierId: f.supplier.id,
    products: [{ productId: product.id, orderNum: num, taxPrice: '8.40', taxRate: 13 }],
    payTypes: [{ id: f.payType.id, payAmount: (num * 8.4).toFixed(2) }],
  })
  const order = await api.get<{ details: { id: string }[] }>('/purchase/order', { id: orderId })
  await api.post('/purchase/receive/sheet/approve/pass/direct', {
    purchaseOrderId: orderId, products: [{ productId: product.id, orderNum: num, purchaseOrderDetailId: order.details[0].id }],
  })
}

const line = (pane: Locator, i = 0) => pane.locator('.document-lines .ant-table-row').nth(i)
const selected = (pane: Locator, label: string) => pane.locator('.ant-select').filter({ has: pane.page().getByRole('combobox', { name: label }) }).locator('.ant-select-selection-item')

/** 添加商品 with the stock column checked, then confirm. */
async function addProductSeeingStock(page: Page, pane: Locator, product: Named, stock: string): Promise<void> {
  await pane.getByRole('button', { name: '添加商品' }).click()
  const picker = page.getByRole('dialog', { name: '选择商品' })
  await expect(picker.getByRole('columnheader', { name: '可用库存' })).toBeVisible()
  await searchPicker(picker, product.code)
  const row = rowOf(picker, product.code)
  await expectCells(row, { 可用库存: stock })
  await row.click()
  await picker.getByRole('button', { name: '确定', exact: true }).click()
  await expect(picker).toBeHidden()
  await expect(line(pane)).toContainText(product.name)
}

test('a clerk enters a sale out by picking customer, warehouse and product and typing only quantities', async ({ page, api }) => {
  const f = await docMasterData(api)
  const product = await vatProduct(api, f)
  await stockIn(api, f, product, 6)

  const { list, pane } = await openAdd(page, '/sale/out')
  await test.step('header pickers show code and name', async () => {
    await pick(page, pane.getByRole('textbox', { name: '仓库', exact: true }), f.sc.code)
    await expectPicked(pane.getByRole('textbox', { name: '仓库', exact: true }), f.sc.code, f.sc.name)
    await pick(page, pane.getByRole('textbox', { name: '客户', exact: true }), f.customer.code)
    await expectPicked(pane.getByRole('textbox', { name: '客户', exact: true }), f.customer.code, f.customer.name)
  })
  await test.step('the product picker shows the stock of the chosen warehouse; the line starts from the product', async () => {
    await addProductSeeingStock(page, pane, product, '6')
    await expect(pane.getByRole('spinbutton', { name: '第1行原价' })).toHaveValue('12.50')
    await expect(pane.getByRole('spinbutton', { name: '第1行价格' })).toHaveValue('12.50')
    await expect(pane.getByRole('spinbutton', { name: '第1行折扣率（%）' })).toHaveValue('100.00')
    await expect(selected(pane, '第1行税率（%）')).toHaveText('9%')
  })
  await pane.getByRole('spinbutton', { name: '第1行出库数量' }).fill('2')
  await expect(total(pane, 'amount')).toHaveText('25.00')
  await pane.getByRole('button', { name: '保存', exact: true }).click()
  await expect(toast(page, '新增成功！')).toBeVisible()
  await expect(rowOf(list, f.sc.name)).toHaveCount(1)

  await test.step('the saved document has the product prices and tax rate', async () => {
    const found = await api.get<{ datas: { id: string }[] }>('/sale/out/sheet/query', { scId: f.sc.id, pageIndex: 1, pageSize: 10 })
    expect(found.datas).toHaveLength(1)
    const saved = await api.get<{ details: Record<string, unknown>[]; totalAmount: string }>('/sale/out/sheet', { id: found.datas[0].id })
    expect(saved.totalAmount).toBe('25.00')
    expect(saved.details.map((d) => [d.productCode, d.orderNum, d.oriPrice, d.taxPrice, d.discountRate, d.taxRate])).toEqual([[product.code, 2, '12.50', '12.50', '100.00', 9]])
  })
  await test.step('the approval and detail pages show the chosen records by code and name', async () => {
    await rowOf(list, f.sc.name).getByRole('button', { name: '审核', exact: true }).click()
    await expect(page).toHaveURL(/\/sale\/out\/approve\//)
    const approve = page.locator('.shell-pane:visible')
    await expect(approve.getByText(`${f.sc.code} ${f.sc.name}`)).toBeVisible()
    await expect(approve.getByText(`${f.customer.code} ${f.customer.name}`)).toBeVisible()
    await approve.getByRole('button', { name: '审核通过', exact: true }).click()
    await expect(toast(page, '审核通过！')).toBeVisible()
    await expect(rowOf(list, f.sc.name)).toContainText('审核通过')
    await rowOf(list, f.sc.name).getByRole('button', { name: '查看', exact: true }).click()
    const detail = page.locator('.shell-pane:visible')
    await expect(detail.getByText(`${f.customer.code} ${f.customer.name}`)).toBeVisible()
  })
})

test('price, discount rate and original price follow each other; the server refuses what disagrees', async ({ page, api }) => {
  const f = await docMasterData(api)
  const product = await vatProduct(api, f)
  await stockIn(api, f, product, 3)
  const { pane } = await openAdd(page, '/retail/out')
  await pick(page, pane.getByRole('textbox', { name: '仓库', exact: true }), f.sc.code)
  await addProductSeeingStock(page, pane, product, '3')
  // Retail lines start from the retail price.
  await expect(pane.getByRole('spinbutton', { name: '第1行价格' })).toHaveValue('13.90')
  await pane.getByRole('spinbutton', { name: '第1行出库数量' }).fill('1')
  await expect(total(pane, 'amount')).toHaveText('13.90')
  await pane.getByRole('spinbutton', { name: '第1行价格' }).fill('12.51')
  await expect(pane.getByRole('spinbutton', { name: '第1行折扣率（%）' })).toHaveValue('90.00')
  await pane.getByRole('spinbutton', { name: '第1行折扣率（%）' }).fill('80')
  await expect(pane.getByRole('spinbutton', { name: '第1行价格' })).toHaveValue('11.12')
  await pane.getByRole('spinbutton', { name: '第1行原价' }).fill('20')
  await expect(pane.getByRole('spinbutton', { name: '第1行价格' })).toHaveValue('16.00')
  await expect(total(pane, 'amount')).toHaveText('16.00')
  // What a page could not send: the server's check of the same relation.
  const refused = await page.request.post('/cloud-api/retail/out/sheet', {
    headers: { 'X-Auth-Token': api.token },
    data: { scId: f.sc.id, products: [{ productId: product.id, orderNum: 1, oriPrice: '30.00', taxPrice: '28.50', discountRate: '100' }] },
  })
  expect((await refused.json()).msg).toBe(`第1行商品（${product.code}）${product.name}的价格与原价、折扣率不一致：原价30.00、折扣率100.00%时价格应为30.00，价格28.50时折扣率应为95.00%！`)
})

test('a purchase order without agreed payment: warned at save, given one on its approval page', async ({ page, api }) => {
  const f = await docMasterData(api)
  const product = await vatProduct(api, f)
  const { list, pane } = await openAdd(page, '/purchase/order')
  await pick(page, pane.getByRole('textbox', { name: '仓库', exact: true }), f.sc.code)
  await pick(page, pane.getByRole('textbox', { name: '供应商', exact: true }), f.supplier.code)
  await expectPicked(pane.getByRole('textbox', { name: '供应商', exact: true }), f.supplier.code, f.supplier.name)
  await pane.getByRole('button', { name: '添加商品' }).click()
  const picker = page.getByRole('dialog', { name: '选择商品' })
  // A purchase does not need the stock column.
  await expect(picker.getByRole('columnheader', { name: '编号' }).first()).toBeVisible()
  await expect(picker.getByRole('columnheader', { name: '可用库存' })).toHaveCount(0)
  await searchPicker(picker, product.code)
  await rowOf(picker, product.code).click()
  await picker.getByRole('button', { name: '确定', exact: true }).click()
  await expect(pane.getByRole('spinbutton', { name: '第1行采购价' })).toHaveValue('8.40')
  await expect(selected(pane, '第1行税率（%）')).toHaveText('13%')
  await pane.getByRole('spinbutton', { name: '第1行采购数量' }).fill('5')
  await expect(total(pane, 'amount')).toHaveText('42.00')

  await pane.getByRole('button', { name: '保存', exact: true }).click()
  const warning = confirmBox(page, '单据没有约定支付')
  await expect(warning).toBeVisible()
  await warning.getByRole('button', { name: '去填写' }).click()
  await expect(warning).toBeHidden()
  await expect(page).toHaveURL(/\/purchase\/order\/add$/)
  // 去填写 offers one agreed payment for the whole amount; this clerk leaves it out after all.
  await expect(pane.getByRole('spinbutton', { name: '第1个支付金额' })).toHaveValue('42.00')
  await pane.locator('.agreed-payments').getByRole('button', { name: '删除' }).click()
  await expect(pane.getByRole('spinbutton', { name: '第1个支付金额' })).toHaveCount(0)
  await pane.getByRole('button', { name: '保存', exact: true }).click()
  await confirmBox(page, '单据没有约定支付').getByRole('button', { name: '仍然保存' }).click()
  await expect(toast(page, '新增成功！')).toBeVisible()

  await rowOf(list, f.sc.name).getByRole('button', { name: '审核', exact: true }).click()
  await expect(page).toHaveURL(/\/purchase\/order\/approve\//)
  const approve = paneOf(page, new URL(page.url()).pathname)
  await expect(approve.getByText('单据没有约定支付，请添加支付方式后再审核通过')).toBeVisible()
  await addPayment(page, approve, f.payType.name)
  await expect(approve.getByRole('spinbutton', { name: '第1个支付金额' })).toHaveValue('42.00')
  await approve.getByRole('button', { name: '审核通过', exact: true }).click()
  await expect(toast(page, '审核通过！')).toBeVisible()
  await expect(rowOf(list, f.sc.name)).toContainText('审核通过')
  const found = await api.get<{ datas: { id: string }[] }>('/purchase/order/query', { scId: f.sc.id, pageIndex: 1, pageSize: 10 })
  const order = await api.get<{ status: number; payTypes: { payAmount: string }[] }>('/purchase/order', { id: found.datas[0].id })
  expect([order.status, order.payTypes.map((p) => p.payAmount)]).toEqual([3, ['42.00']])
})
