import type { Page } from '@playwright/test'
import { expect, paneOf, roleWithKeys, signIn, test, uniqueSuffix, userInRole, type AdminApi } from './helpers.js'

const PHONE = { width: 375, height: 812 }

/** A salesperson with the customer screens, owning three customers made for the test. */
async function salesperson(api: AdminApi, s: string) {
  const roleId = await roleWithKeys(api, { code: `H5R${s}`, name: `移动销售${s}` }, ['crm:customer:query', 'crm:customer:add', 'crm:customer:modify'])
  const user = await userInRole(api, roleId, { username: `h5${s}`.toLowerCase(), name: `赵移动${s}` })
  const names = ['A', 'B', 'C'].map((x) => `移动客户${s}${x}`)
  const ids: string[] = []
  for (const [i, name] of names.entries())
    ids.push(await api.post<string>('/crm/customer', { code: `H5${s}${i}`, name, settleType: 1, available: true, telephone: '13800000000', contact: '钱经理' }))
  await api.post('/basedata/customer/transfer', { ids, ownerId: user.id, reason: '' })
  return { ...user, names }
}

/** The page is no wider than the phone: nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
}

/**
 * A salesperson on a 375 px phone: the H5 customer list in the mobile shell (no tab bar, the user menu
 * with the languages and 退出登录), card rows first and the search behind 搜索/筛选, nothing wider than
 * the screen in either language; a customer opens its H5 page and the browser's back returns to the list.
 */
test('the H5 customer list in the mobile shell: rows first, search behind a button, user menu with languages, fits 375 px', async ({ browser, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  const user = await salesperson(api, s)
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, viewport: PHONE })
  const page = await context.newPage()
  await signIn(page, user.username, user.password)

  await page.goto('/crm/customer/h5')
  const list = paneOf(page, '/crm/customer/h5')
  await expect(list).toBeVisible()
  const rows = list.locator('.ant-table-row')
  for (const name of user.names) await expect(rows.filter({ hasText: name })).toHaveCount(1)
  // Rows first: the search form is not on the page until asked for; the rows read as cards, labels beside values.
  const nameBox = page.getByRole('textbox', { name: '名称', exact: true })
  await expect(nameBox).toBeHidden()
  const first = rows.filter({ hasText: user.names[0] })
  await expect(first.locator('.list-card-title')).toHaveText(user.names[0])
  await expect(first.locator('.list-card-field').filter({ hasText: '联系人' })).toContainText('钱经理')
  await expect(first.locator('.list-card-field').filter({ hasText: '编号' })).toContainText(`H5${s}0`)
  // The mobile shell: no desktop tab bar, no side menu, the page's title in the header.
  await expect(page.locator('.shell-tabs')).toHaveCount(0)
  await expect(page.getByRole('menu', { name: '导航菜单' })).toHaveCount(0)
  await expect(page.locator('.shell-mobile-title')).toHaveText('客户管理')
  await expectNoSidewaysScroll(page)

  await list.getByRole('button', { name: '搜索/筛选' }).click()
  const drawer = page.locator('.ant-drawer-open').filter({ hasText: '搜索/筛选' })
  await expect(drawer).toBeVisible()
  await drawer.getByRole('textbox', { name: '名称', exact: true }).fill(user.names[1])
  await drawer.getByRole('button', { name: /查\s*询/ }).click()
  await expect(drawer).toBeHidden()
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText(user.names[1])
  await expectNoSidewaysScroll(page)

  // A customer opens its H5 page; the browser's back comes to the list as it was left.
  await rows.first().getByText(user.names[1], { exact: true }).click()
  await expect(page).toHaveURL(/\/crm\/customer\/h5\/detail\//)
  await expect(page.locator('.shell-pane:not([hidden]) .ant-card-head-title').first()).toHaveText(user.names[1])
  await expect(page.locator('.shell-tabs')).toHaveCount(0)
  await page.goBack()
  await expect(page).toHaveURL(/\/crm\/customer\/h5$/)
  await expect(rows.filter({ hasText: user.names[0] })).toHaveCount(1)

  // The user menu holds the languages and 退出登录.
  await page.getByRole('button', { name: '用户菜单' }).click()
  const userMenu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)')
  await expect(userMenu.getByRole('menuitem', { name: '退出登录' })).toBeVisible()
  await userMenu.getByRole('menuitem', { name: 'English' }).click()
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible()
  await expect(list.getByRole('button', { name: 'Search / filter' })).toBeVisible()
  await expect(page.locator('.shell-mobile-title')).toHaveText('Customer management')
  await expect(rows.first().locator('.list-card-field').filter({ hasText: 'Contact' })).toContainText('钱经理')
  await expectNoSidewaysScroll(page)
  await context.close()
})
