import type { Locator, Page } from '@playwright/test'
import { expect, openScreen, paneOf, rowOf, searchPicker, toast, uniqueSuffix, type AdminApi } from './helpers.js'

/**
 * Pieces of the document specs: master data and the documents a scenario starts from, made through
 * the API with codes unique to the test (so spec files may run in parallel on one server), and the
 * steps of the document page under test: header pickers, the product picker, save, approve.
 */

export interface Named {
  id: string
  code: string
  name: string
}

export interface DocFixtures {
  s: string
  sc: Named
  supplier: Named
  customer: Named
  member: Named
  payType: Named
  product: Named
}

/** A warehouse, a supplier, a customer, a member, a pay type and one product (purchase price 1.00), all new. */
export async function docMasterData(api: AdminApi): Promise<DocFixtures> {
  const s = uniqueSuffix()
  const make = async (path: string, body: Record<string, unknown>): Promise<Named> => ({
    id: await api.post<string>(path, body),
    code: String(body.code),
    name: String(body.name),
  })
  const sc = await make('/basedata/storecenter', { code: `W${s}`, name: `单据仓${s}` })
  const supplier = await make('/basedata/supplier', { code: `S${s}`, name: `供应商${s}`, mnemonicCode: 'GYS', settleType: 1, manageType: 1 })
  const customer = await make('/basedata/customer', { code: `K${s}`, name: `客户${s}`, mnemonicCode: 'KH', settleType: 1 })
  const member = await make('/basedata/member', { code: `M${s}`, name: `会员${s}`, gender: 0, joinDay: '2026-01-01' })
  const payType = await make('/basedata/paytype', { code: `T${s}`, name: `现金${s}`, recText: false })
  const categoryId = await api.post<string>('/basedata/product/category', { code: `C${s}`, name: `类目${s}` })
  const brandId = await api.post<string>('/basedata/product/brand', { code: `B${s}`, name: `品牌${s}` })
  const product = await make('/basedata/product', {
    code: `P${s}`,
    name: `单据商品${s}`,
    skuCode: `K${s}`,
    categoryId,
    brandId,
    productType: 1,
    taxRate: 0,
    saleTaxRate: 0,
    purchasePrice: '1.00',
    salePrice: '9.00',
    retailPrice: '9.90',
  })
  return { s, sc, supplier, customer, member, payType, product }
}

/**
 * Goods in through the API as the default configuration wants them (a receive sheet needs an order):
 * a purchase order approved directly, then a receive sheet of all of it approved directly. Answers the
 * receive sheet's id.
 */
export async function receive(api: AdminApi, f: DocFixtures, num: number, price: string): Promise<string> {
  const amount = (num * Number(price)).toFixed(2)
  const orderId = await api.post<string>('/purchase/order/approve/pass/direct', {
    scId: f.sc.id,
    supplierId: f.supplier.id,
    products: [{ productId: f.product.id, orderNum: num, taxPrice: price, taxRate: 0 }],
    payTypes: [{ id: f.payType.id, payAmount: amount }],
  })
  const order = await api.get<{ details: { id: string }[] }>('/purchase/order', { id: orderId })
  return api.post<string>('/purchase/receive/sheet/approve/pass/direct', {
    purchaseOrderId: orderId,
    products: [{ productId: f.product.id, orderNum: num, purchaseOrderDetailId: order.details[0].id }],
  })
}

/** The code of a document by its id (the lists and pickers show codes). */
export async function codeOf(api: AdminApi, base: string, id: string): Promise<string> {
  return (await api.get<{ code: string }>(base, { id })).code
}

/** Chooses one row by its code in the picker dialog a header input opens (double-click chooses). */
export async function pick(page: Page, input: Locator, code: string): Promise<void> {
  const picker = page.getByRole('dialog', { name: /^选择/ })
  // A click during an opening animation may not reach the input: click until the picker is open.
  await expect(async () => {
    await input.click()
    await expect(picker).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 15_000 })
  await searchPicker(picker, code)
  await rowOf(picker, code).dblclick()
  await expect(picker).toBeHidden()
  // A single pick shows the chosen record's code (its name is the tooltip); pickers labelled by another field show that.
  await expect(input).toHaveValue(new RegExp(`^${code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( |$)`))
}

/** 添加商品: ticks the product in the product picker and confirms; the line table then shows it. */
export async function addProduct(page: Page, pane: Locator, product: Named): Promise<void> {
  await pane.getByRole('button', { name: '添加商品' }).click()
  const picker = page.getByRole('dialog', { name: '选择商品' })
  await searchPicker(picker, product.code)
  await rowOf(picker, product.code).click()
  await picker.getByRole('button', { name: '确定', exact: true }).click()
  await expect(picker).toBeHidden()
  await expect(pane.locator('.document-lines .ant-table-row').first()).toContainText(product.name)
}

/** Opens a document list and its add page; answers both panes. */
export async function openAdd(page: Page, path: string): Promise<{ list: Locator; pane: Locator }> {
  const list = await openScreen(page, path)
  await list.getByRole('button', { name: '新增', exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`${path}/add$`))
  const pane = paneOf(page, `${path}/add`)
  await expect(pane).toBeVisible()
  return { list, pane }
}

/** 保存 on the add page: the list comes back with the new document pending. */
export async function save(page: Page, pane: Locator, list: Locator, path: string, key: string): Promise<void> {
  await pane.getByRole('button', { name: '保存', exact: true }).click()
  await expect(toast(page, '新增成功！')).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`${path}$`))
  await expect(rowOf(list, key)).toHaveCount(1)
}

/** 审核 from the list row of the document (found by a text unique to the test), then 审核通过 on its approve page. */
export async function approveFromList(page: Page, list: Locator, key: string): Promise<void> {
  const row = rowOf(list, key)
  await expect(row).toContainText('待审核')
  await row.getByRole('button', { name: '审核', exact: true }).click()
  await expect(page).toHaveURL(/\/approve\//)
  await page.locator('.shell-pane:visible').getByRole('button', { name: '审核通过', exact: true }).click()
  await expect(toast(page, '审核通过！')).toBeVisible()
  await expect(rowOf(list, key)).toContainText('审核通过')
  await expect(rowOf(list, key).getByRole('button', { name: '审核', exact: true })).toHaveCount(0)
}

/** The live total of the document page (`data-total`). */
export const total = (pane: Locator, name: string): Locator => pane.locator(`[data-total="${name}"]`)

/**
 * Chooses an option of an antd Select without search: its dropdown is a virtual list that renders only
 * the options in view, so it scrolls until the option shows (other tests add pay types too).
 */
export async function chooseScrolling(page: Page, combobox: Locator, option: string): Promise<void> {
  await combobox.click()
  const dropdown = page.locator('.ant-select-dropdown:visible')
  const item = dropdown.locator('.ant-select-item-option', { hasText: option })
  await expect(dropdown.locator('.ant-select-item-option').first()).toBeVisible()
  await expect(async () => {
    if ((await item.count()) === 0) {
      await dropdown.locator('.rc-virtual-list-holder').evaluate((el) => el.scrollBy(0, 160))
      throw new Error(`${option} not in view yet`)
    }
  }).toPass({ timeout: 20_000, intervals: [100] })
  await item.first().click()
  await expect(dropdown).toHaveCount(0)
}

/** 添加支付方式 with this pay type: the amount defaults to what is left of the total. */
export async function addPayment(page: Page, pane: Locator, payType: string): Promise<void> {
  await pane.getByRole('button', { name: '添加支付方式' }).click()
  await chooseScrolling(page, pane.getByRole('combobox', { name: '第1个支付方式' }), payType)
}

/** The DatePicker input of a header field (found by its form item label). */
export const dateInput = (page: Page, pane: Locator, label: string): Locator =>
  pane.locator('.ant-formily-item').filter({ has: page.getByText(label, { exact: true }) }).locator('input').first()

/** Types a date into the DatePicker of a header field (found by its form item label). */
export async function fillDate(page: Page, pane: Locator, label: string, date: string): Promise<void> {
  const input = dateInput(page, pane, label)
  await input.click()
  await input.fill(date)
  await input.press('Enter')
  await expect(input).toHaveValue(date)
}

/** 修改 from the list row of `key`: the first line's amount becomes `amount`, saved with 修改成功！; the list row then shows `shown` (the amount itself by default). */
export async function modifyFromList(page: Page, list: Locator, key: string, amountLabel: RegExp, amount: string, shown = amount): Promise<void> {
  await rowOf(list, key).getByRole('button', { name: '修改', exact: true }).click()
  await expect(page).toHaveURL(/\/modify\//)
  const pane = page.locator('.shell-pane:visible')
  await pane.getByRole('spinbutton', { name: amountLabel }).fill(amount)
  await pane.getByRole('button', { name: '保存', exact: true }).click()
  await expect(toast(page, '修改成功！')).toBeVisible()
  await expect(rowOf(list, key)).toContainText(shown)
}
