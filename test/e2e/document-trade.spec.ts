import { expect, expectCells, expectStock, test, toast, expectPicked } from './helpers.js'
import { addPayment, addProduct, approveFromList, codeOf, docMasterData, openAdd, pick, receive, save, total } from './document-helpers.js'

/**
 * Purchase return, sale order and sale return made on their document pages (header pickers, line
 * table, product picker, save, approve from the list), then 商品库存 read cell by cell: the exact
 * quantity, moving-average unit cost and value after approval. The stock they start from comes in
 * through the API: 4 at 2.00 and 4 at 3.00, i.e. 8 worth 20.00 at 2.500000.
 */

test.describe.configure({ timeout: 90_000 })

test('purchase return against a receipt: out at the receipt price, not the average', async ({ page, api }) => {
  const f = await docMasterData(api)
  const first = await receive(api, f, 4, '2.00')
  await receive(api, f, 4, '3.00')
  const receiptCode = await codeOf(api, '/purchase/receive/sheet', first)
  await expectStock(page, f.product, f.sc, { num: '8', price: '2.500000', amount: '20.00' })

  const { list, pane } = await openAdd(page, '/purchase/return')
  await test.step('the receipt fills the header and its line at 0, showing what may still be returned', async () => {
    await pick(page, pane.getByRole('textbox', { name: '采购收货单', exact: true }), receiptCode)
    await expectPicked(pane.getByRole('textbox', { name: '仓库', exact: true }), f.sc.code, f.sc.name)
    await expectPicked(pane.getByRole('textbox', { name: '供应商', exact: true }), f.supplier.code, f.supplier.name)
    await expect(pane.locator('.document-lines .ant-table-row')).toHaveCount(1)
    await expect(pane.locator('.document-lines .ant-table-row').first()).toContainText(f.product.name)
    await expect(pane.getByRole('spinbutton', { name: '第1行退货数量' })).toHaveValue('0')
    // The price is the receipt's, not to be changed.
    await expectCells(pane.locator('.document-lines .ant-table-row').first(), { 采购价: '2.00', 可退数量: '4' })
  })
  await test.step('saving untouched returns nothing: it is refused', async () => {
    await pane.getByRole('button', { name: '保存', exact: true }).click()
    await expect(toast(page, '退货数量不能全部为0，请填写要退货的数量！')).toBeVisible()
    await expect(page).toHaveURL(/\/purchase\/return\/add$/)
    await expect(pane.getByRole('button', { name: '保存', exact: true })).toBeEnabled()
  })
  await pane.getByRole('spinbutton', { name: '第1行退货数量' }).fill('2')
  await expect(total(pane, 'num')).toHaveText('2')
  await expect(total(pane, 'amount')).toHaveText('4.00')
  await save(page, pane, list, '/purchase/return', f.sc.name)
  await approveFromList(page, list, f.sc.name)
  // 20.00 − 2 × 2.00 = 16.00 over 6: the unit cost moves to 2.666667 (out at the average would keep 2.500000).
  await expectStock(page, f.product, f.sc, { num: '6', price: '2.666667', amount: '16.00' })
})

test('sale order with an agreed payment, approved: the stock does not move', async ({ page, api }) => {
  const f = await docMasterData(api)
  await receive(api, f, 4, '2.00')
  await receive(api, f, 4, '3.00')

  const { list, pane } = await openAdd(page, '/sale/order')
  await pick(page, pane.getByRole('textbox', { name: '仓库', exact: true }), f.sc.code)
  await pick(page, pane.getByRole('textbox', { name: '客户', exact: true }), f.customer.code)
  await addProduct(page, pane, f.product)
  await pane.getByRole('spinbutton', { name: '第1行销售数量' }).fill('3')
  await pane.getByRole('spinbutton', { name: '第1行价格' }).fill('9.00')
  await expect(total(pane, 'num')).toHaveText('3')
  await expect(total(pane, 'amount')).toHaveText('27.00')
  await addPayment(page, pane, f.payType.name)
  await expect(pane.getByRole('spinbutton', { name: '第1个支付金额' })).toHaveValue('27.00')
  await save(page, pane, list, '/sale/order', f.sc.name)
  await approveFromList(page, list, f.sc.name)
  // An order takes nothing out: the sale out sheet does.
  await expectStock(page, f.product, f.sc, { num: '8', price: '2.500000', amount: '20.00' })
})

test('sale return without an out sheet: in at the average cost, not the return price', async ({ page, api }) => {
  const f = await docMasterData(api)
  await receive(api, f, 4, '2.00')
  await receive(api, f, 4, '3.00')

  const { list, pane } = await openAdd(page, '/sale/return')
  await pick(page, pane.getByRole('textbox', { name: '仓库', exact: true }), f.sc.code)
  await pick(page, pane.getByRole('textbox', { name: '客户', exact: true }), f.customer.code)
  await addProduct(page, pane, f.product)
  await pane.getByRole('spinbutton', { name: '第1行退货数量' }).fill('2')
  await pane.getByRole('spinbutton', { name: '第1行价格' }).fill('9.00')
  await expect(total(pane, 'amount')).toHaveText('18.00')
  await save(page, pane, list, '/sale/return', f.sc.name)
  await approveFromList(page, list, f.sc.name)
  // 2 back at the average 2.50 (not at 9.00 nor at the purchase price 1.00): 10 worth 25.00.
  await expectStock(page, f.product, f.sc, { num: '10', price: '2.500000', amount: '25.00' })
})
