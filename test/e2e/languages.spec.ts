import { expect, fieldErrors, openScreen, paneOf, rowOf, switchLanguage, test, toast, uniqueSuffix, type AdminApi } from './helpers.js'

/**
 * Issue 17 "Languages": after the header's language switch, the menu tree, the generic screens built
 * from schemas/ (columns, search form, form labels, enumeration labels, buttons) and the server's
 * messages are in the chosen language. Each test signs in fresh (Chinese by default) and has its own brand.
 */

/** The switch is named in the language being left (切换语言, 切換語言, Language). */
async function brandOf(api: AdminApi) {
  const code = `LB${uniqueSuffix()}`
  await api.post('/basedata/product/brand', { code, name: `语言品牌${code}`, available: true })
  return code
}

test('English: menu titles, field labels, enumeration labels and a server message', async ({ page, api }) => {
  test.setTimeout(120_000)
  const code = await brandOf(api)
  await page.goto('/')
  await switchLanguage(page, 'English')

  // The seeded menu tree, opened by its English titles.
  await page.getByRole('menu', { name: 'Top menu' }).getByRole('menuitem', { name: 'Product centre' }).click()
  await page.getByRole('menu', { name: 'Navigation' }).getByRole('menuitem', { name: 'Product brands' }).click()
  await expect(page).toHaveURL(/\/product\/brand$/)
  const pane = paneOf(page, '/product/brand')
  await expect(page.locator('.shell-tab-label[data-tab-key="/product/brand"]')).toHaveText('Product brands')

  // The list: columns, search form and buttons from the entity file, the status from enums.json.
  const head = pane.locator('.ant-table-thead')
  for (const title of ['No.', 'Code', 'Name', 'Short name', 'Status', 'Created at', 'Actions']) await expect(head).toContainText(title)
  await expect(pane.getByRole('button', { name: 'Search', exact: true })).toBeVisible()
  await expect(pane.getByRole('button', { name: 'Reset', exact: true })).toBeVisible()
  await pane.getByPlaceholder('Please enter Code', { exact: true }).fill(code)
  await pane.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(rowOf(pane, code)).toContainText('Enabled')
  await expect(head).not.toContainText('编号')

  // The form: title, labels and the browser's own check, then the server's uniqueness message.
  await pane.getByRole('button', { name: 'Add', exact: true }).click()
  const form = page.getByRole('dialog', { name: 'New Product brand' })
  await expect(form).toBeVisible()
  await form.getByRole('button', { name: 'OK', exact: true }).click()
  await expect(fieldErrors(form).filter({ hasText: 'Please enter Code' })).toBeVisible()
  await form.getByRole('textbox', { name: 'Code', exact: true }).fill(code)
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Duplicate brand')
  await form.getByRole('button', { name: 'OK', exact: true }).click()
  await expect(toast(page, 'Code already exists; enter another')).toBeVisible()

  // The choice outlives a reload: the English catalogues (a lazy chunk) load before the first screen.
  await page.reload()
  await expect(page.getByRole('menu', { name: 'Top menu' }).getByRole('menuitem', { name: 'Product centre' })).toBeVisible()
  await expect(paneOf(page, '/product/brand').locator('.ant-table-thead')).toContainText('Short name')
})

test('繁體中文: menu titles, field labels, enumeration labels and a server message', async ({ page, api }) => {
  test.setTimeout(120_000)
  const code = await brandOf(api)
  await page.goto('/')
  await switchLanguage(page, '繁體中文')

  await page.getByRole('menu', { name: '頂部菜單' }).getByRole('menuitem', { name: '商品中心' }).click()
  const side = page.getByRole('menu', { name: '導航菜單' })
  await expect(side).toContainText('商品銷售屬性組')
  await side.getByRole('menuitem', { name: '商品品牌' }).click()
  await expect(page).toHaveURL(/\/product\/brand$/)
  const pane = paneOf(page, '/product/brand')

  const head = pane.locator('.ant-table-thead')
  for (const title of ['序號', '編號', '名稱', '簡稱', '狀態', '創建時間', '操作']) await expect(head).toContainText(title)
  await pane.getByPlaceholder('請輸入編號', { exact: true }).fill(code)
  await pane.getByRole('button', { name: '查詢', exact: true }).click()
  await expect(rowOf(pane, code)).toContainText('啟用')

  await pane.getByRole('button', { name: '新增', exact: true }).click()
  const form = page.getByRole('dialog', { name: '新增商品品牌' })
  await form.getByRole('button', { name: '確定', exact: true }).click()
  await expect(fieldErrors(form).filter({ hasText: '請輸入編號' })).toBeVisible()
  await form.getByRole('textbox', { name: '編號', exact: true }).fill(code)
  await form.getByRole('textbox', { name: '名稱', exact: true }).fill('重複品牌')
  await form.getByRole('button', { name: '確定', exact: true }).click()
  await expect(toast(page, '編號重複，請重新輸入')).toBeVisible()
})

test('English: a purchase order page (line columns, totals, agreed payments), the profile and the import dialog', async ({ page }) => {
  test.setTimeout(120_000)
  await page.goto('/')
  await switchLanguage(page, 'English')

  // The document page: the fixed product columns and the line fields, the totals and the agreed payments.
  const order = await openScreen(page, '/purchase/order/add')
  const lineHead = order.locator('.document-lines .ant-table-thead')
  for (const title of ['No.', 'Product code', 'Product name', 'SKU code', 'Unit', 'Specification', 'Purchase quantity', 'Purchase price', 'Actions'])
    await expect(lineHead).toContainText(title)
  await expect(lineHead).not.toContainText('商品编号')
  const totals = order.getByLabel('Total', { exact: true })
  await expect(totals).toContainText('Quantity:')
  await expect(totals).toContainText('Gift quantity:')
  await expect(totals).toContainText('Total amount:')
  await expect(totals).not.toContainText('数量')
  await expect(order.getByText('Agreed payments', { exact: true })).toBeVisible()
  await expect(order.getByRole('button', { name: 'Add payment method' })).toBeVisible()
  await expect(order.getByLabel('Agreed payments total')).toContainText(/^Payments total: .* \/ Total amount: /)
  await expect(order.getByText('No agreed payments')).toBeVisible()

  // The profile: its card, labels and tabs, and a form behind a tab.
  const profile = await openScreen(page, '/profile')
  await expect(profile.getByText('Personal information', { exact: true })).toBeVisible()
  await expect(profile.locator('.ant-descriptions')).toContainText('Username')
  for (const tab of ['Change e-mail', 'Change mobile number', 'Change password', 'Operation log']) await expect(profile.getByRole('tab', { name: tab })).toBeVisible()
  await profile.getByRole('tab', { name: 'Change password' }).click()
  await expect(profile.getByLabel('Old password')).toBeVisible()
  await expect(profile.getByRole('button', { name: 'Change password' })).toBeVisible()
  await expect(profile).not.toContainText('个人信息')

  // The import dialog of a list: its steps and buttons.
  const brands = await openScreen(page, '/entity/productBrand')
  await brands.getByRole('button', { name: 'Import', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Import Product brand' })
  await expect(dialog.getByRole('button', { name: 'Download template' })).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Upload file' })).toBeVisible()
  await expect(dialog).toContainText('rows with errors are not imported and are listed by row number')
  await expect(dialog).not.toContainText('下载模板')
  await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close', exact: true }).click()
  await expect(dialog).toBeHidden()
})

test('繁體中文: a purchase order page and the profile', async ({ page }) => {
  test.setTimeout(120_000)
  await page.goto('/')
  await switchLanguage(page, '繁體中文')

  const order = await openScreen(page, '/purchase/order/add')
  const lineHead = order.locator('.document-lines .ant-table-thead')
  for (const title of ['序號', '商品編號', '商品名稱', 'SKU編號', '單位', '規格', '採購數量', '採購價']) await expect(lineHead).toContainText(title)
  const totals = order.getByLabel('合計', { exact: true })
  await expect(totals).toContainText('數量：')
  await expect(totals).toContainText('總金額：')
  await expect(order.getByRole('button', { name: '添加支付方式' })).toBeVisible()

  const profile = await openScreen(page, '/profile')
  await expect(profile.getByText('個人信息', { exact: true })).toBeVisible()
  for (const tab of ['修改郵箱', '修改手機號', '修改密碼', '操作日誌']) await expect(profile.getByRole('tab', { name: tab })).toBeVisible()
})
