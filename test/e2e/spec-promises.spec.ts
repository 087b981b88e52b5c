import { test, expect, openScreen, paneOf, uniqueSuffix } from './helpers.js'

/**
 * Promises of the specification in the browser (the API side is test/api/spec-promises.test.ts): the
 * product form as pages of their own, and the bell's 待办 opening its page and marking it read.
 */

interface Todo {
  id: string
  title: string
  jumpUrl: string
  readed: boolean
}

test('/product/info/add and /product/info/modify/{id} are tabs of their own, opened by link and after a reload', async ({ page, api }) => {
  const s = uniqueSuffix()
  const categoryId = await api.post<string>('/basedata/product/category', { code: `RC${s}`, name: `路由类目${s}` })
  const brandId = await api.post<string>('/basedata/product/brand', { code: `RB${s}`, name: `路由品牌${s}` })
  const id = await api.post<string>('/basedata/product', {
    code: `RP${s}`, name: `路由商品${s}`, skuCode: `RS${s}`, categoryId, brandId, productType: 1,
    taxRate: 13, saleTaxRate: 13, purchasePrice: '1.00', salePrice: '2.00', retailPrice: '2.00',
  })

  const add = await openScreen(page, '/product/info/add')
  await expect(page.locator('.shell-tabs .ant-tabs-tab-active')).toContainText('新增商品')
  await expect(add.locator('[data-entity-form-page="product"]')).toBeVisible()
  await page.reload()
  await expect(paneOf(page, '/product/info/add').locator('[data-entity-form-page="product"]')).toBeVisible()

  const path = `/product/info/modify/${id}`
  const modify = await openScreen(page, path)
  await expect(page.locator('.shell-tabs .ant-tabs-tab-active')).toContainText('修改商品')
  await expect(modify.getByRole('textbox', { name: '名称' }).first()).toHaveValue(`路由商品${s}`)
  await page.reload()
  const again = paneOf(page, path)
  await expect(again.getByRole('textbox', { name: '名称' }).first()).toHaveValue(`路由商品${s}`)
  // 取消 closes the tab and shows the list
  await again.getByRole('button', { name: /取\s*消/ }).click()
  await expect(page).toHaveURL(/\/product\/info$/)
  await expect(page.locator('.shell-tabs .ant-tabs-tab').filter({ hasText: '修改商品' })).toHaveCount(0)
})

test('the bell lists the todo of a failed job; opening it goes to its page and marks it read', async ({ page, api }) => {
  const name = `失败任务${uniqueSuffix()}`
  const job = await api.post<string>('/qrtz', { name, jobType: 2, cron: '0 0 0 * * ?', script: 'throw new Error("坏了")' })
  await api.patch('/qrtz/trigger', { id: job })
  const title = `定时器【${name}】执行失败`
  const mine = async () => (await api.get<{ datas: Todo[] }>('/system/todo/query/my', { pageSize: 100 })).datas.find((x) => x.title === title)
  expect(await mine()).toMatchObject({ readed: false, jumpUrl: '/development/qrtz' })

  await openScreen(page, '/dashboard/workplace')
  await page.locator('button.notice-bell').click()
  const panel = page.locator('.notice-bell-panel')
  await panel.getByRole('tab', { name: /待办/ }).click()
  await panel.getByRole('button', { name: title }).click()
  await expect(page).toHaveURL(/\/development\/qrtz$/)
  await expect.poll(async () => (await mine())?.readed, { timeout: 10_000 }).toBe(true)
})

test('the icon picker drops down 200 px high with search over the icon names', async ({ page }) => {
  const pane = await openScreen(page, '/system/menu')
  await pane.getByRole('button', { name: /新\s*增/ }).first().click()
  const dialog = page.locator('.ant-modal').filter({ hasText: '图标' })
  await dialog.locator('.ant-formily-item').filter({ hasText: '图标' }).locator('.ant-select').click()
  const dropdown = page.locator('.icon-picker-dropdown:visible')
  await expect(dropdown.locator('.rc-virtual-list-holder')).toHaveCSS('max-height', '200px')
  await page.keyboard.type('Wallet')
  await expect(dropdown.locator('.ant-select-item-option').filter({ hasText: 'WalletOutlined' })).toHaveCount(1)
  await expect(dropdown.locator('.ant-select-item-option').filter({ hasNotText: 'Wallet' })).toHaveCount(0)
  // The ancestor's antd 1.x name finds the same built-in icon.
  await page.keyboard.press('Control+A')
  await page.keyboard.type('shopping-cart')
  await expect(dropdown.locator('.ant-select-item-option').filter({ hasText: 'ShoppingCartOutlined' })).toHaveCount(1)
})
