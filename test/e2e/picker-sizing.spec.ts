import type { Locator, Page } from '@playwright/test'
import { docMasterData, openAdd } from './document-helpers.js'
import { expect, expectPicked, openPicker, openScreen, rowOf, searchPicker, test, uniqueSuffix } from './helpers.js'

/**
 * The picker frame's rules, one for every picker (000 §9 and issue 32), at the suite's 1440×900 window:
 * the dialog fits the window (确定 on screen, rows scrolling inside), its width is the spec's (60%, 80% for
 * the purchase-order picker, 90% for the customer picker), no cell shows a record id, a single pick shows
 * the code with the name as tooltip, and a tree picker finds a node by its trimmed name.
 */

test.describe.configure({ timeout: 90_000 })

const HEX_ID = /^[0-9a-f]{32}$/

/** The dialog lies inside the window, its 确定 on screen, and its width is this share of the window's. */
async function expectFits(page: Page, picker: Locator, widthShare: number): Promise<void> {
  const viewport = page.viewportSize()!
  const modal = picker.locator('.ant-modal-content')
  // Rows arrive after the dialog opens: measure once they are drawn (or the empty text is).
  await expect(picker.locator('.ant-table-row, .ant-empty').first()).toBeVisible()
  await expect(async () => {
    const box = (await modal.boundingBox())!
    expect(box.y).toBeGreaterThanOrEqual(0)
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height)
    expect(Math.abs(box.width - viewport.width * widthShare)).toBeLessThan(2)
  }).toPass({ timeout: 10_000 })
  await expect(picker.getByRole('button', { name: '确定', exact: true })).toBeInViewport({ ratio: 1 })
}

/** No cell of the picker's rows holds a 32-hex record id. */
async function expectNoIds(picker: Locator): Promise<void> {
  const cells = await picker.locator('.ant-table-row td').allInnerTexts()
  expect(cells.length).toBeGreaterThan(0)
  expect(cells.map((c) => c.trim()).filter((c) => HEX_ID.test(c))).toEqual([])
}

test('the product picker fits a 1440×900 window: 确定 on screen, a full page of rows scrolls inside', async ({ page, api }) => {
  const f = await docMasterData(api)
  // A full page (20) of this test's products, more than the window can show at once.
  const categoryId = await api.post<string>('/basedata/product/category', { code: `CX${f.s}`, name: `铺满类目${f.s}` })
  const brandId = await api.post<string>('/basedata/product/brand', { code: `BX${f.s}`, name: `铺满品牌${f.s}` })
  for (let i = 0; i < 21; i++)
    await api.post('/basedata/product', {
      code: `P${f.s}X${String(i).padStart(2, '0')}`,
      name: `铺满商品${f.s}${i}`,
      skuCode: `KX${f.s}${i}`,
      categoryId,
      brandId,
      productType: 1,
      taxRate: 0,
      saleTaxRate: 0,
    })
  const { pane } = await openAdd(page, '/purchase/order')
  await pane.getByRole('button', { name: '添加商品' }).click()
  const picker = page.getByRole('dialog', { name: '选择商品' })
  await expect(picker).toBeVisible()
  await searchPicker(picker, `P${f.s}X00`, `P${f.s}X20`)
  await expect(picker.locator('.ant-table-row')).toHaveCount(20)
  await expectFits(page, picker, 0.6)
  // The rows scroll under a fixed header, the dialog stays put.
  const body = picker.locator('.ant-table-body')
  await expect(async () => {
    const { scroll, client } = await body.evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }))
    expect(scroll).toBeGreaterThan(client)
  }).toPass({ timeout: 10_000 })
  await expectNoIds(picker)
  await picker.getByRole('button', { name: '取消', exact: true }).click()
  await expect(picker).toBeHidden()
})

test('the customer picker is 90 % wide, shows no record id, and its pick shows the code with the name as tooltip', async ({ page, api }) => {
  const f = await docMasterData(api)
  const { pane } = await openAdd(page, '/sale/out')
  const input = pane.getByRole('textbox', { name: '客户', exact: true })
  const picker = await openPicker(page, input, '选择客户')
  await expectFits(page, picker, 0.9)
  await expectNoIds(picker)
  await expect(picker.locator('.ant-table-thead th').filter({ hasText: /^ID$/ })).toHaveCount(0)
  await searchPicker(picker, f.customer.code)
  await rowOf(picker, f.customer.code).dblclick()
  await expect(picker).toBeHidden()
  await expectPicked(input, f.customer.code, f.customer.name)
})

test('the purchase-order picker is 80 % wide and fits the window', async ({ page }) => {
  const { pane } = await openAdd(page, '/purchase/receive')
  const picker = await openPicker(page, pane.getByRole('textbox', { name: '采购订单', exact: true }), '选择采购订单')
  await expectFits(page, picker, 0.8)
  await picker.getByRole('button', { name: '取消', exact: true }).click()
  await expect(picker).toBeHidden()
})

test('a tree picker finds a node by its trimmed name typed into 编号, and still by its code', async ({ page, api }) => {
  const s = uniqueSuffix()
  const parentId = await api.post<string>('/basedata/product/category', { code: `N${s}`, name: `树名${s}` })
  await api.post<string>('/basedata/product/category', { code: `N${s}01`, name: `叶名${s}`, parentId })
  const pane = await openScreen(page, '/product/info')
  await pane.getByRole('button', { name: '新增', exact: true }).click()
  const form = page.getByRole('dialog', { name: '新增商品' })
  const tree = await openPicker(page, form.getByRole('textbox', { name: '类目', exact: true }), '选择商品类目')
  const leaf = tree.locator('.ant-tree-treenode', { hasText: `N${s}01 叶名${s}` })
  const code = tree.getByPlaceholder('请输入编号')

  await code.fill(`  叶名${s} `)
  await tree.getByRole('button', { name: '查询', exact: true }).click()
  // The match and its parent only: the name found it, not the code.
  await expect(leaf).toBeVisible()
  await expect(tree.getByRole('treeitem')).toHaveCount(2)

  await code.fill(`N${s}01`)
  await tree.getByRole('button', { name: '查询', exact: true }).click()
  await expect(leaf).toBeVisible()
  await expect(tree.getByRole('treeitem')).toHaveCount(2)

  await leaf.locator('.ant-tree-node-content-wrapper').click()
  await tree.getByRole('button', { name: '确定', exact: true }).click()
  await expect(tree).toBeHidden()
  await expectPicked(form.getByRole('textbox', { name: '类目', exact: true }), `N${s}01`, `叶名${s}`)
})
