import type { Locator } from '@playwright/test'
import { expect, openScreen, rowOf, switchLanguage, test, toast, uniqueSuffix, type AdminApi } from './helpers.js'

/**
 * Issue 17 "Languages" on the hand-written feature screens: after the header's language switch the
 * SKU matrix of a SPU, the data-permission designer, the stock-take plans and a CRM customer page show
 * their fixed texts in the chosen language. Test data is named in ASCII, so whatever Chinese is left in
 * the checked parts is a fixed text that was not translated.
 */

const HAN = /[\u3400-\u9fff]+/g

/** The switch is named in the language being left (切换语言, 切換語言, Language). */
/** No Chinese in what this part of the screen shows (its visible text and its controls' names). */
async function expectNoChinese(scope: Locator) {
  await expect(scope).toBeVisible()
  const shown = await scope.innerText()
  const names = await scope.evaluate((el) =>
    [...el.querySelectorAll('[aria-label],[placeholder],[title]')]
      .filter((e) => (e as HTMLElement).offsetParent !== null)
      .flatMap((e) => [e.getAttribute('aria-label'), e.getAttribute('placeholder'), e.getAttribute('title')])
      .filter((v): v is string => Boolean(v)),
  )
  expect([...shown.matchAll(HAN), ...names.flatMap((n) => [...n.matchAll(HAN)])].map((m) => m[0])).toEqual([])
}

/** Narrows a picker dialog to the records of a code prefix through its Code search, in English. */
async function searchPickerEn(picker: Locator, prefix: string) {
  await picker.getByPlaceholder('Please enter Code', { exact: true }).fill(prefix)
  await picker.getByRole('button', { name: 'Search', exact: true }).click()
}

async function saleGroups(api: AdminApi, s: string) {
  const colour = await api.post<string>('/basedata/product/saleprop/group', { code: `LC${s}`, name: `Colour${s}` })
  const size = await api.post<string>('/basedata/product/saleprop/group', { code: `LS${s}`, name: `Size${s}` })
  for (const [groupId, code, name] of [
    [colour, 'R', 'Red'],
    [colour, 'B', 'Blue'],
    [size, 'S', 'S'],
    [size, 'M', 'M'],
  ])
    await api.post('/basedata/product/saleprop/item', { groupId, code, name })
  return { colour: `Colour${s}`, size: `Size${s}` }
}

test('English: the SKU matrix of a new SPU', async ({ page, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  const groups = await saleGroups(api, s)
  await page.goto('/')
  await switchLanguage(page, 'English')

  const pane = await openScreen(page, '/product/poly')
  await pane.getByRole('button', { name: 'Add', exact: true }).click()
  const form = page.getByRole('dialog', { name: 'New Product SPU' })
  await expect(form).toBeVisible()
  const matrix = form.locator('.product-sku-matrix')
  // Without groups: the one line of a SPU without sale properties.
  await expect(matrix.locator('tr[data-state="active"]')).toHaveCount(1)
  await expect(matrix.getByText('1 products in all')).toBeVisible()

  await form.getByLabel('Sale property group', { exact: true }).click()
  const picker = page.getByRole('dialog', { name: 'Choose Sale property group' })
  await expect(picker).toBeVisible()
  await searchPickerEn(picker, `LC${s}`)
  await rowOf(picker, `LC${s}`).click()
  await searchPickerEn(picker, `LS${s}`)
  await rowOf(picker, `LS${s}`).click()
  await picker.getByRole('button', { name: 'OK', exact: true }).click()
  await expect(picker).toBeHidden()

  const colours = form.getByRole('group', { name: groups.colour })
  await expect(colours).toBeVisible()
  await expect(matrix.getByText('Tick sale properties to generate products')).toBeVisible()
  await colours.getByText('Red', { exact: true }).click()
  await colours.getByText('Blue', { exact: true }).click()
  await form.getByRole('group', { name: groups.size }).getByText('M', { exact: true }).click()
  await expect(matrix.locator('tr[data-state="active"]')).toHaveCount(2)

  const head = matrix.locator('.ant-table-thead')
  for (const title of ['No.', groups.colour, groups.size, 'Code', 'SKU', 'External code', 'Purchase price', 'Sale price', 'Retail price', 'Actions'])
    await expect(head).toContainText(title)
  await expect(matrix.getByText('Set for all:')).toBeVisible()
  await expect(matrix.getByRole('button', { name: 'Fill in prices' })).toBeVisible()
  await expect(matrix.getByRole('button', { name: 'Remove Red M' })).toBeVisible()
  await expect(matrix.getByText('2 products in all')).toBeVisible()

  // The matrix's own checks speak English too.
  await matrix.getByRole('button', { name: 'Fill in prices' }).click()
  await expect(toast(page, 'Please enter the prices to fill in')).toBeVisible()
  await matrix.getByRole('button', { name: 'Generate codes' }).click()
  await expect(toast(page, 'Please enter the item number first')).toBeVisible()

  await matrix.getByRole('button', { name: 'Remove Blue M' }).click()
  await expect(matrix.getByRole('button', { name: 'Restore Blue M' })).toBeVisible()
  // A line left out shows its state in a column of its own.
  await expect(matrix.getByText('Not generated')).toBeVisible()
  await expect(head).toContainText('Status')
  await expectNoChinese(matrix)
})

test('English: the data-permission designer of a role', async ({ page, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  const code = `LR${s}`
  await api.post('/system/role', { code, name: `Role ${code}`, available: true })
  await page.goto('/')
  await switchLanguage(page, 'English')

  const roles = await openScreen(page, '/system/role')
  await roles.getByPlaceholder('Please enter Code', { exact: true }).fill(code)
  await roles.getByRole('button', { name: 'Search', exact: true }).click()
  await rowOf(roles, code).getByRole('button', { name: 'Data permissions' }).click()
  const dialog = page.getByRole('dialog', { name: 'Set data permissions' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('tab', { name: 'Product' })).toHaveAttribute('aria-selected', 'true')
  await expect(dialog.getByRole('tab', { name: 'Document' })).toBeVisible()
  const product = dialog.locator('.ant-tabs-tabpane-active')
  await expect(product.getByRole('region', { name: 'Product nodes' }).getByRole('button')).toHaveText(
    ['AND', 'OR', 'Code', 'Name', 'Short name', 'SKU', 'External code', 'Category code', 'Category name', 'Brand code', 'Brand name', 'Specification', 'Unit', 'Status', 'Created at'],
  )
  const tree = product.getByRole('region', { name: 'Data permission condition tree' })
  await expect(tree).toContainText('Drag or click an operator node on the left (AND, OR) to begin')

  // The designer's checks (the same as the server's) in English.
  await product.getByRole('button', { name: 'Code', exact: true }).click()
  await expect(toast(page, 'Only operator nodes may be added here')).toBeVisible()
  await product.getByRole('button', { name: 'AND', exact: true }).click()
  const and = tree.getByRole('group', { name: 'Operator node AND' })
  await expect(and).toBeVisible()
  await expect(and.getByRole('button', { name: 'Change to OR' })).toBeVisible()
  await product.getByRole('button', { name: 'Code', exact: true }).click()
  const condition = and.getByRole('group', { name: 'Condition node Code' })
  await expect(condition).toBeVisible()
  await expect(condition.getByRole('combobox', { name: 'Condition of Code' })).toBeVisible()
  await dialog.getByRole('button', { name: 'Preview', exact: true }).click()
  await expect(toast(page, 'Node [Code]: please enter a value')).toBeVisible()
  await condition.getByRole('textbox', { name: 'Value of Code' }).fill(`A${s}`)
  await dialog.getByRole('button', { name: 'Preview', exact: true }).click()
  await expect(product.getByRole('region', { name: 'Product SQL preview' })).toContainText(`A${s}`)
  await expectNoChinese(dialog)

  await condition.getByRole('button', { name: 'Delete condition node Code' }).click()
  await expect(page.locator('.ant-modal-confirm').filter({ hasText: 'Delete this node?' })).toBeVisible()
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Cancel' }).click()
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click()
  await expect(dialog).toBeHidden()
})

test('English: the stock-take plans and their add dialog', async ({ page }) => {
  test.setTimeout(120_000)
  await page.goto('/')
  await switchLanguage(page, 'English')

  const plans = await openScreen(page, '/stock/take/plan')
  const search = plans.locator('form').first()
  for (const label of ['Business document No.', 'Warehouse', 'Count status']) await expect(search.getByLabel(label, { exact: true }).first()).toBeVisible()
  const head = plans.locator('.ant-table-thead')
  for (const title of ['No.', 'Business document No.', 'Warehouse', 'Count type', 'Count status', 'Actions']) await expect(head).toContainText(title)
  await expectNoChinese(search)
  await expectNoChinese(head)

  await plans.getByRole('button', { name: 'Add', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'New stock-take task' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(toast(page, 'The warehouse is required')).toBeVisible()
  await expectNoChinese(dialog)
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
})

test('English: a CRM customer page', async ({ page, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  const code = `LCU${s}`
  const id = await api.post<string>('/crm/customer', { code, name: `Acme ${code}`, settleType: 1, available: true })
  await page.goto('/')
  await switchLanguage(page, 'English')

  const path = `/crm/customer/detail/${id}`
  const detail = await openScreen(page, path)
  await expect(page.locator(`.shell-tab-label[data-tab-key="${path}"]`)).toHaveText('Customer details')
  await expect(detail.getByText(`Acme ${code}`).first()).toBeVisible()
  const tabs = detail.getByRole('tablist')
  for (const title of ['Follow-ups', 'Contact', 'Opportunity', 'Contract', 'Collection', 'Owner changes']) await expect(tabs.getByRole('tab', { name: title })).toBeVisible()
  await expect(detail.getByRole('button', { name: 'Write a follow-up' })).toBeVisible()
  await tabs.getByRole('tab', { name: 'Owner changes' }).click()
  await expect(detail.locator('.ant-tabs-tabpane-active .ant-table-thead')).toContainText('Original owner')
  await expectNoChinese(tabs)

  const actions = await openScreen(page, '/crm/action')
  await expect(actions.getByText('My customers:')).toBeVisible()
  await expect(actions.getByText('Followed up today:')).toBeVisible()
})

test('繁體中文: the data-permission designer and the stock-take add dialog', async ({ page, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  const code = `LH${s}`
  await api.post('/system/role', { code, name: `Role ${code}`, available: true })
  await page.goto('/')
  await switchLanguage(page, '繁體中文')

  const roles = await openScreen(page, '/system/role')
  await roles.getByPlaceholder('請輸入編號', { exact: true }).fill(code)
  await roles.getByRole('button', { name: '查詢', exact: true }).click()
  await rowOf(roles, code).getByRole('button', { name: '數據權限' }).click()
  const dialog = page.getByRole('dialog', { name: '設置數據權限' })
  await expect(dialog).toBeVisible()
  const product = dialog.locator('.ant-tabs-tabpane-active')
  await expect(product.getByRole('region', { name: '商品節點' })).toContainText('運算節點')
  await product.getByRole('button', { name: '並且', exact: true }).click()
  await expect(product.getByRole('group', { name: '運算節點 並且' })).toBeVisible()
  await expect(product.getByRole('button', { name: '改為或者' })).toBeVisible()
  await dialog.getByRole('button', { name: '預覽', exact: true }).click()
  await expect(toast(page, '運算節點必須包含子節點')).toBeVisible()
  await dialog.getByRole('button', { name: '取消', exact: true }).click()
  await expect(dialog).toBeHidden()

  const plans = await openScreen(page, '/stock/take/plan')
  await plans.getByRole('button', { name: '新增', exact: true }).click()
  const add = page.getByRole('dialog', { name: '新增盤點任務' })
  await expect(add).toBeVisible()
  await expect(add.getByRole('combobox', { name: '盤點類別', exact: true })).toBeVisible()
  await add.getByRole('button', { name: '保存' }).click()
  await expect(toast(page, '倉庫不能為空')).toBeVisible()
})
