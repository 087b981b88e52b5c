import type { Locator, Page } from '@playwright/test'
import ExcelJS from 'exceljs'
import { expect, expectCells, openScreen, rowOf, test, toast } from './helpers.js'
import { codeOf, docMasterData, openAdd, pick, receive } from './document-helpers.js'

/**
 * 物流单管理: a logistics sheet made on its add page from an approved sale out sheet (the server's
 * candidates), saved 待发货, then delivered from the list's 发货 dialog with the tracking number; the
 * list shows 已发货 and the sheet can no longer be modified.
 */

test.describe.configure({ timeout: 120_000 })

const item = (pane: Locator, label: string) => pane.locator('.ant-formily-item').filter({ has: pane.page().getByText(label, { exact: true }) })

/** Types into a header text input found by its form item label. */
async function fill(pane: Locator, label: string, value: string): Promise<void> {
  await item(pane, label).locator('input').first().fill(value)
}

/** Chooses a district in a region cascader by searching its name. */
async function chooseRegion(page: Page, pane: Locator, label: string, district: string, path: RegExp): Promise<void> {
  const input = item(pane, label).locator('input').first()
  await input.click()
  await input.fill(district)
  const option = page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item').filter({ hasText: path }).first()
  await option.click()
  await expect(item(pane, label)).toContainText(district)
}

test('a logistics sheet from a sale out, delivered @pg', async ({ page, api }) => {
  const f = await docMasterData(api)
  const product = await api.get<{ categoryId: string; brandId: string }>('/basedata/product', { id: f.product.id })
  const weighed = {
    id: await api.post<string>('/basedata/product', {
      code: `G${f.s}`, name: `称重商品${f.s}`, skuCode: `G${f.s}`, categoryId: product.categoryId, brandId: product.brandId, productType: 1,
      taxRate: 0, saleTaxRate: 0, purchasePrice: '1.00', salePrice: '9.00', retailPrice: '9.00', weight: '0.75', volume: '10.10',
    }),
    code: `G${f.s}`,
    name: `称重商品${f.s}`,
  }
  await receive(api, { ...f, product: weighed }, 5, '1.00')
  const outId = await api.post<string>('/sale/out/sheet/approve/pass/direct', {
    scId: f.sc.id, customerId: f.customer.id, products: [{ productId: weighed.id, orderNum: 3, taxPrice: '9.00', taxRate: 0 }],
  })
  const outCode = await codeOf(api, '/sale/out/sheet', outId)
  await api.post<string>('/basedata/logistics/company', { code: `L${f.s}`, name: `快递${f.s}`, available: true })

  const path = '/logistics/sheet'
  const { list, pane } = await openAdd(page, path)
  // No approval on a logistics sheet: only 保存.
  await expect(pane.getByRole('button', { name: '直接审核通过' })).toHaveCount(0)
  await pick(page, pane.getByRole('textbox', { name: '物流公司', exact: true }), `L${f.s}`)
  await fill(pane, '寄件人姓名', `寄件人${f.s}`)
  await fill(pane, '寄件人联系电话', '13800000001')
  await chooseRegion(page, pane, '寄件人地区', '东城区', /北京市.*东城区/)
  await fill(pane, '寄件人地址', '东直门大街1号')
  await fill(pane, '收件人姓名', `收件人${f.s}`)
  await fill(pane, '收件人联系电话', '13800000002')
  await chooseRegion(page, pane, '收件人地区', '南山区', /深圳市.*南山区/)
  await fill(pane, '收件人地址', '科技园2号')

  await pane.getByRole('button', { name: '添加业务单据' }).click()
  const dialog = page.getByRole('dialog', { name: '选择业务单据' })
  await dialog.getByRole('checkbox', { name: `选择${outCode}` }).check()
  await dialog.getByRole('button', { name: '确定', exact: true }).click()
  await expect(dialog).toBeHidden()
  const line = pane.locator('.document-lines .ant-table-row').first()
  await expectCells(line, { 单据号: outCode, 业务类型: '销售出库单', 单据状态: '审核通过', 仓库: f.sc.name, '客户/会员': f.customer.name })

  // 3 × 0.75 kg and 3 × 10.10 cm3 from the product, computed by the server.
  await pane.getByRole('button', { name: '计算总重量（kg）' }).click()
  await expect(item(pane, '总重量（kg）').locator('input')).toHaveValue('2.25')
  await pane.getByRole('button', { name: '计算总体积（cm3）' }).click()
  await expect(item(pane, '总体积（cm3）').locator('input')).toHaveValue('30.30')

  await pane.getByRole('button', { name: '保存', exact: true }).click()
  await expect(toast(page, '新增成功！')).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`${path}$`))
  const row = rowOf(list, `收件人${f.s}`)
  await expect(row).toContainText('待发货')
  await expect(row.getByRole('button', { name: '审核', exact: true })).toHaveCount(0)

  await row.getByRole('button', { name: '发货', exact: true }).click()
  const delivery = page.getByRole('dialog', { name: '物流单发货' })
  await delivery.getByRole('textbox', { name: '物流单号' }).fill(`SF${f.s}`)
  await delivery.getByRole('spinbutton', { name: '物流费（元）' }).fill('12.5')
  await delivery.getByRole('button', { name: '确定', exact: true }).click()
  await expect(toast(page, '发货成功！')).toBeVisible()
  await expect(rowOf(list, `收件人${f.s}`)).toContainText('已发货')
  await expect(rowOf(list, `收件人${f.s}`)).toContainText(`SF${f.s}`)
  await expect(rowOf(list, `收件人${f.s}`).getByRole('button', { name: '修改', exact: true })).toHaveCount(0)
  await expect(rowOf(list, `收件人${f.s}`).getByRole('button', { name: '发货', exact: true })).toHaveCount(0)

  const sheets = await api.get<{ datas: { status: number; logisticsNo: string; totalAmount: string; totalWeight: string; totalVolume: string }[] }>('/logistics/sheet/query', { logisticsNo: `SF${f.s}` })
  expect(sheets.datas).toEqual([expect.objectContaining({ status: 3, logisticsNo: `SF${f.s}`, totalAmount: '12.50', totalWeight: '2.25', totalVolume: '30.30' })])
})

test('批量Excel发货: a file of sheet numbers and tracking numbers delivers the sheets, with the failing row named', async ({ page, api }) => {
  const f = await docMasterData(api)
  await receive(api, f, 5, '1.00')
  const outId = await api.post<string>('/sale/out/sheet/approve/pass/direct', {
    scId: f.sc.id, customerId: f.customer.id, products: [{ productId: f.product.id, orderNum: 1, taxPrice: '9.00', taxRate: 0 }],
  })
  const companyId = await api.post<string>('/basedata/logistics/company', { code: `D${f.s}`, name: `快运${f.s}`, available: true })
  const sheetId = await api.post<string>('/logistics/sheet', {
    logisticsCompanyId: companyId, senderName: '张三', senderTelephone: '1', senderDistrictId: '110101', senderAddress: '甲',
    receiverName: `批量${f.s}`, receiverTelephone: '2', receiverDistrictId: '440305', receiverAddress: '乙', products: [{ bizId: outId }],
  })
  const code = await codeOf(api, '/logistics/sheet', sheetId)
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('物流单发货信息')
  sheet.addRow(['*单据号', '物流公司编号', '*物流单号', '物流费（元）'])
  sheet.addRow([code, '', `YT${f.s}`, 3])
  sheet.addRow([`X${f.s}`, '', 'YT-0', ''])
  const file = Buffer.from(await book.xlsx.writeBuffer())

  const list = await openScreen(page, '/logistics/sheet')
  await list.getByRole('button', { name: '批量Excel发货' }).click()
  const dialog = page.getByRole('dialog', { name: '批量Excel发货' })
  await dialog.locator('input[type=file]').setInputFiles({ name: '发货.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: file })
  await expect(dialog.getByRole('progressbar', { name: '导入进度' })).toBeVisible()
  await expect(dialog.locator('.import-tips')).toContainText(`第3行：单据号（X${f.s}）不存在`)
  await dialog.getByRole('button', { name: '关闭' }).click()
  await expect(rowOf(list, `批量${f.s}`)).toContainText('已发货')
  await expect(rowOf(list, `批量${f.s}`)).toContainText(`YT${f.s}`)
})
