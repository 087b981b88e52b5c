import { expect, openScreen, paneOf, rowOf, test, toast } from './helpers.js'
import { codeOf, docMasterData, receive } from './document-helpers.js'

/**
 * Settlement in the browser: 登记付款 (a row action of the receive sheet list) records a payment against an approved receive sheet and
 * refuses more than is unpaid; 新增开票 invoices the same sheet; 发票查询 lists the invoice.
 */
test('a receive sheet is paid in part, refused beyond its remainder, invoiced and found in 发票查询', async ({ page, api }) => {
  test.setTimeout(120_000)
  const f = await docMasterData(api)
  const sheetId = await receive(api, f, 10, '5.00')
  const code = await codeOf(api, '/purchase/receive/sheet', sheetId)

  await test.step('登记付款: 20.00 of 50.00, then 30.01 is refused', async () => {
    const list = await openScreen(page, '/purchase/receive')
    await rowOf(list, code).getByRole('button', { name: '登记付款', exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`/purchase/receive/addPayments/${sheetId}$`))
    const pane = paneOf(page, `/purchase/receive/addPayments/${sheetId}`)
    await expect(pane.getByText(code, { exact: true })).toBeVisible()
    await expect(pane.getByTestId('unpaid-amount')).toHaveText('50.00')
    // Other specs add pay types on the same server: search the list as a clerk does.
    await pane.getByLabel('支付方式').fill(f.payType.name)
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: f.payType.name }).click()
    await pane.getByLabel('付款金额').fill('20')
    await pane.getByRole('button', { name: '保 存' }).or(pane.getByRole('button', { name: '保存' })).click()
    await expect(toast(page, '登记付款成功！')).toBeVisible()
    await expect(pane.getByTestId('unpaid-amount')).toHaveText('30.00')
    await pane.getByLabel('付款金额').fill('30.01')
    await pane.getByRole('button', { name: '保 存' }).or(pane.getByRole('button', { name: '保存' })).click()
    await expect(toast(page, `采购收货单：${code}剩余未收付金额为30.00元，本次金额为30.01元，无法登记！`)).toBeVisible()
    await expect(pane.getByTestId('unpaid-amount')).toHaveText('30.00')
  })

  await test.step('收付款 and 收付款计划 list what was registered', async () => {
    const payments = await openScreen(page, '/payments/list')
    await expect(rowOf(payments, code)).toContainText('20.00')
    await expect(rowOf(payments, code)).toContainText(f.supplier.name)
    const plans = await openScreen(page, '/payments/plan')
    await expect(rowOf(plans, code)).toContainText('50.00')
    await expect(rowOf(plans, code)).toContainText('30.00')
  })

  const invoiceNo = String(Date.now()).slice(-10)
  await test.step('新增开票 for the receive sheet', async () => {
    const pane = await openScreen(page, '/invoice/export/add')
    await pane.getByText('采购收货单', { exact: true }).click()
    await rowOf(pane, code).click()
    await expect(pane.getByLabel('价税合计')).toHaveValue('50.00')
    await pane.getByLabel('发票号码').fill(invoiceNo)
    await pane.getByRole('button', { name: '保 存' }).or(pane.getByRole('button', { name: '保存' })).click()
    await expect(toast(page, '开票成功！')).toBeVisible()
    await expect(page).toHaveURL(/\/invoice\/export$/)
  })

  await test.step('发票查询 finds it', async () => {
    const pane = await openScreen(page, '/invoice/list')
    await pane.getByLabel('发票号码').fill(invoiceNo)
    await pane.getByRole('button', { name: '查 询' }).or(pane.getByRole('button', { name: '查询' })).click()
    const row = rowOf(pane, invoiceNo)
    await expect(row).toContainText(code)
    await expect(row).toContainText('50.00')
    await expect(row).toContainText(f.supplier.name)
  })
})
