import dayjs from 'dayjs'
import { browserToday, expect, openCatalog, openMenu, paneOf, searchPicker, test, uniqueSuffix, type AdminApi } from './helpers.js'

/**
 * What the clerk no longer looks for: a top menu opens its main list (not its 参数设置), a new order's
 * 预计到货日期 counts from 采购参数设置, and the receive sheet's 采购订单 picker offers only orders with
 * something left to receive.
 */

async function order(api: AdminApi, s: string, scId: string, supplierId: string, productId: string): Promise<{ id: string; code: string; lineId: string }> {
  const payTypeId = await api.post<string>('/basedata/paytype', { code: `T${s}${Math.random().toString(36).slice(2, 6)}`, name: `现金${s}`, recText: false })
  const id = await api.post<string>('/purchase/order/approve/pass/direct', {
    scId, supplierId, products: [{ productId, orderNum: 2, taxPrice: '1.00' }], payTypes: [{ id: payTypeId, payAmount: '2.00' }],
  })
  const got = await api.get<{ code: string; details: { id: string }[] }>('/purchase/order', { id })
  return { id, code: got.code, lineId: got.details[0].id }
}

test('a top menu lands on its main list, not its settings page', async ({ page }) => {
  await page.goto('/')
  await openCatalog(page, '采购管理')
  await expect(page).toHaveURL(/\/purchase\/order$/)
  await expect(paneOf(page, '/purchase/order')).toBeVisible()
  await openCatalog(page, '销售管理')
  await expect(page).toHaveURL(/\/sale\/order$/)
})

test('a new purchase order’s 预计到货日期 is today + 预计到货天数', async ({ page, api }) => {
  await api.put('/purchase/config', { expectArriveDays: 3 })
  const list = await openMenu(page, '采购管理', '采购订单管理', '/purchase/order')
  await list.getByRole('button', { name: '新增', exact: true }).click()
  const pane = paneOf(page, '/purchase/order/add')
  await expect(pane.getByRole('textbox', { name: '预计到货日期' })).toHaveValue(dayjs(await browserToday(page)).add(3, 'day').format('YYYY-MM-DD'))
})

test('the receive sheet’s 采购订单 picker leaves out orders received in full', async ({ page, api }) => {
  const s = uniqueSuffix()
  const scId = await api.post<string>('/basedata/storecenter', { code: `W${s}`, name: `仓${s}` })
  const supplierId = await api.post<string>('/basedata/supplier', { code: `S${s}`, name: `供应商${s}`, mnemonicCode: 'GYS', settleType: 1, manageType: 1 })
  const categoryId = await api.post<string>('/basedata/product/category', { code: `C${s}`, name: `类目${s}` })
  const brandId = await api.post<string>('/basedata/product/brand', { code: `B${s}`, name: `品牌${s}` })
  const productId = await api.post<string>('/basedata/product', {
    code: `P${s}`, name: `商品${s}`, skuCode: `K${s}`, categoryId, brandId, productType: 1, taxRate: 17, saleTaxRate: 17, purchasePrice: '1.00', salePrice: '2.00', retailPrice: '2.00',
  })
  await api.put('/purchase/config', { receiveRequirePurchase: true })
  const open = await order(api, s, scId, supplierId, productId)
  const done = await order(api, s, scId, supplierId, productId)
  await api.post('/purchase/receive/sheet/approve/pass/direct', { purchaseOrderId: done.id, products: [{ productId, orderNum: 2, purchaseOrderDetailId: done.lineId }] })

  const list = await openMenu(page, '采购管理', '采购收货管理', '/purchase/receive')
  await list.getByRole('button', { name: '新增', exact: true }).click()
  const sheet = paneOf(page, '/purchase/receive/add')
  await sheet.getByRole('textbox', { name: '采购订单', exact: true }).click()
  const picker = page.getByRole('dialog', { name: '选择采购订单' })
  await searchPicker(picker, open.code)
  await expect(picker.locator('.ant-table-row').filter({ hasText: open.code })).toHaveCount(1)
  await searchPicker(picker, done.code)
  await expect(picker.locator('.ant-table-row').filter({ hasText: done.code })).toHaveCount(0)
})
