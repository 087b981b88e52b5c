import { docMasterData, addPayment, addProduct, codeOf, openAdd, pick, save } from './document-helpers.js'
import { expect, openPicker, rowOf, searchPicker, test } from './helpers.js'

/**
 * The purchase-order picker "for sales too" (000 §7, §9): the sale order's 关联采购订单 opens it over
 * `/purchase/order/saleQuery` with status 3 (审核通过) preselected; another status shows the others; the
 * chosen order is saved with the sale order.
 */
test('sale order 关联采购订单: the purchase-order picker preselects 审核通过, filters by status, and the choice is saved', async ({ page, api }) => {
  test.setTimeout(120_000)
  const f = await docMasterData(api)
  const order = (scId: string) => ({ scId, supplierId: f.supplier.id, products: [{ productId: f.product.id, orderNum: 1, taxPrice: '1.00' }], payTypes: [{ id: f.payType.id, payAmount: '1.00' }] })
  const approved = await codeOf(api, '/purchase/order', await api.post<string>('/purchase/order/approve/pass/direct', order(f.sc.id)))
  const pending = await codeOf(api, '/purchase/order', await api.post<string>('/purchase/order', order(f.sc.id)))

  const { list, pane } = await openAdd(page, '/sale/order')
  const input = pane.getByRole('textbox', { name: '关联采购订单', exact: true })
  const picker = await openPicker(page, input, '选择采购订单')
  const status = picker.locator('.ant-select', { has: page.getByRole('combobox', { name: '状态', exact: true }) })
  const chooseStatus = async (text: string) => {
    await status.click()
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).click()
    await expect(status).toContainText(text)
    await picker.getByRole('button', { name: '查询', exact: true }).click()
  }

  await test.step('审核通过 is preselected: the approved order shows, the pending one does not', async () => {
    await expect(status).toContainText('审核通过')
    await searchPicker(picker, approved, pending)
    await expect(rowOf(picker, approved)).toHaveCount(1)
    await expect(rowOf(picker, approved)).toContainText(f.sc.code)
    await expect(rowOf(picker, pending)).toHaveCount(0)
  })

  await test.step('待审核 shows the pending order only', async () => {
    await chooseStatus('待审核')
    await expect(rowOf(picker, pending)).toHaveCount(1)
    await expect(rowOf(picker, approved)).toHaveCount(0)
  })

  await test.step('choose the approved order and save the sale order with it', async () => {
    await chooseStatus('审核通过')
    await rowOf(picker, approved).dblclick()
    await expect(picker).toBeHidden()
    await expect(input).toHaveValue(approved)
    await pick(page, pane.getByRole('textbox', { name: '仓库', exact: true }), f.sc.code)
    await pick(page, pane.getByRole('textbox', { name: '客户', exact: true }), f.customer.code)
    await addProduct(page, pane, f.product)
    await pane.getByRole('spinbutton', { name: '第1行销售数量' }).fill('1')
    await pane.getByRole('spinbutton', { name: '第1行价格' }).fill('9.00')
    await addPayment(page, pane, f.payType.name)
    await save(page, pane, list, '/sale/order', f.sc.name)
    const saved = await api.get<{ datas: { id: string }[] }>('/sale/order/query', { scId: f.sc.id })
    expect(saved.datas).toHaveLength(1)
    const purchaseId = (await api.get<{ datas: { id: string; code: string }[] }>('/purchase/order/query', { code: approved })).datas[0].id
    expect(await api.get('/sale/order', { id: saved.datas[0].id })).toMatchObject({ purchaseOrderId: purchaseId })
  })
})
