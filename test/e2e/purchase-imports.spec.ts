import ExcelJS from 'exceljs'
import { expect, openMenu, rowOf, test, uniqueSuffix } from './helpers.js'

/**
 * The purchase order list's imports through the dialog: 导入 creates orders from a file, 导入约定支付 gives
 * an order its agreed payments; the progress ends in a success line and the list shows the result.
 */

async function workbook(header: string[], rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('数据')
  sheet.addRow(header)
  for (const r of rows) sheet.addRow(r)
  return Buffer.from(await book.xlsx.writeBuffer())
}

test('purchase orders and their agreed payments imported through the list’s dialogs', async ({ page, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  await api.post('/basedata/storecenter', { code: `IW${s}`, name: `导入仓${s}` })
  const supplierId = await api.post<string>('/basedata/supplier', { code: `IS${s}`, name: `导入供应商${s}`, mnemonicCode: 'DR', settleType: 1, manageType: 1 })
  const payTypeId = await api.post<string>('/basedata/paytype', { code: `IT${s}`, name: `导入现金${s}`, recText: false })
  const categoryId = await api.post<string>('/basedata/product/category', { code: `IC${s}`, name: `导入类目${s}` })
  const brandId = await api.post<string>('/basedata/product/brand', { code: `IB${s}`, name: `导入品牌${s}` })
  await api.post('/basedata/product', {
    code: `IP${s}`, name: `导入商品${s}`, skuCode: `IK${s}`, categoryId, brandId, productType: 1, taxRate: 17, saleTaxRate: 17,
    purchasePrice: '1.00', salePrice: '2.00', retailPrice: '2.00',
  })

  const list = await openMenu(page, '采购管理', '采购订单管理', '/purchase/order')

  await test.step('导入: one order from two rows of one group', async () => {
    await list.getByRole('button', { name: '导入', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: '导入采购订单' })
    const file = await workbook(
      ['*仓库编号', '*供应商编号', '采购员编号', '预计到货日期', '*商品编号', '采购价', '*采购数量', '*是否赠品', '单据明细备注', '单据备注'],
      [
        [`IW${s}`, `IS${s}`, '', '2026-09-01', `IP${s}`, '2.50', 4, '否', '', `导入订单${s}`],
        [`IW${s}`, `IS${s}`, '', '2026-09-01', `IP${s}`, '', 1, '是', '', ''],
      ],
    )
    await dialog.locator('input[type=file]').setInputFiles({ name: '采购订单.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: file })
    await expect(dialog.getByRole('progressbar', { name: '导入进度' })).toBeVisible()
    await expect(dialog.locator('.ant-alert-success')).toBeVisible()
    await dialog.getByRole('button', { name: '关闭' }).click()
    await expect(rowOf(list, `导入订单${s}`)).toContainText('10.00')
  })

  const orders = await api.get<{ datas: { id: string; code: string }[] }>('/purchase/order/query', { supplierId })
  expect(orders.datas).toHaveLength(1)
  const order = orders.datas[0]

  await test.step('导入约定支付: the order gets two identical payments, not merged', async () => {
    await list.getByRole('button', { name: '导入约定支付', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: '导入约定支付' })
    const file = await workbook(['*单据号', '*支付方式编号', '*支付金额', '支付内容'], [
      [order.code, `IT${s}`, 5, ''],
      [order.code, `IT${s}`, 5, ''],
    ])
    await dialog.locator('input[type=file]').setInputFiles({ name: '约定支付.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: file })
    await expect(dialog.locator('.ant-alert-success')).toBeVisible()
    await dialog.getByRole('button', { name: '关闭' }).click()
    const detail = await api.get<{ payTypes: { payTypeId: string; payAmount: string }[] }>('/purchase/order', { id: order.id })
    expect(detail.payTypes.map((p) => [p.payTypeId, p.payAmount])).toEqual([
      [payTypeId, '5.00'],
      [payTypeId, '5.00'],
    ])
  })

  await test.step('a refused row is listed with its Excel row number', async () => {
    await list.getByRole('button', { name: '导入约定支付', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: '导入约定支付' })
    const file = await workbook(['*单据号', '*支付方式编号', '*支付金额', '支付内容'], [[order.code, `IT${s}`, 0, '']])
    await dialog.locator('input[type=file]').setInputFiles({ name: '约定支付.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: file })
    await expect(dialog.locator('.import-tips')).toContainText('第2行：支付金额必须大于0')
  })
})
