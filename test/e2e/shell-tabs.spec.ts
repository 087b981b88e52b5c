import type { Page } from '@playwright/test'
import { ADMIN, expect, openMenu, paneOf, test, toast } from './helpers.js'

/**
 * The shell from signing in: three menus opened from the mixed layout, every tab context action,
 * the lock, and the tabs restored after a reload of the browser tab.
 */

const tabBar = (page: Page) => page.locator('.shell-tabs')
const tabLabels = (page: Page) => tabBar(page).locator('.shell-tab-label')
const tab = (page: Page, path: string) => tabBar(page).locator(`.shell-tab-label[data-tab-key="${path}"]`)

/**
 * Watches a pane for the refresh spinner from inside the page (it shows for 200 or 500 ms only, too
 * short to poll for reliably on a busy machine); the answer is how long it was shown.
 */
async function watchSpinner(page: Page, path: string): Promise<() => Promise<number>> {
  await page.evaluate((selector) => {
    const w = window as unknown as { spin?: { start?: number; end?: number } }
    const spin: { start?: number; end?: number } = {}
    w.spin = spin
    const observer = new MutationObserver(() => {
      const shown = !!document.querySelector(selector)
      if (shown && spin.start === undefined) spin.start = performance.now()
      if (!shown && spin.start !== undefined) {
        spin.end = performance.now()
        observer.disconnect()
      }
    })
    observer.observe(document.body, { subtree: true, childList: true })
  }, `.shell-pane[data-page="${path}"] > .page-loading`)
  return async () => {
    await page.waitForFunction(() => (window as unknown as { spin: { end?: number } }).spin.end !== undefined)
    return page.evaluate(() => {
      const { start, end } = (window as unknown as { spin: { start: number; end: number } }).spin
      return end - start
    })
  }
}

/** Right-clicks a tab and chooses an entry of its context menu. */
async function tabAction(page: Page, path: string, action: string) {
  const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)')
  const entry = menu.getByRole('menuitem', { name: action, exact: true })
  // The context menu may close again while the page re-renders under it: open it until the entry is chosen.
  await expect(async () => {
    if (!(await entry.isVisible())) await tab(page, path).click({ button: 'right', timeout: 5_000 })
    await entry.click({ timeout: 5_000 })
  }).toPass({ timeout: 45_000 })
  await expect(menu).toHaveCount(0)
}

test.describe('multi-page tabs', () => {
  // Signs in through the login page itself rather than reusing the worker's saved session.
  test.use({ storageState: { cookies: [], origins: [] } })

  test('sign in, open three menus, use every tab action, lock, reload', async ({ page }) => {
    // One long user journey (sign-in, six pages, every action, a reload) on a shared 2-core machine.
    test.setTimeout(120_000)
    await page.goto('/system/role')
    await expect(page).toHaveURL(/\/login$/)
    await page.getByLabel('用户名', { exact: true }).fill(ADMIN.username)
    await page.getByLabel('密码', { exact: true }).fill(ADMIN.password)
    await page.getByRole('button', { name: '登录', exact: true }).click()
    // Back to the page asked for, with the workplace as the first tab.
    await expect(page).toHaveURL(/\/system\/role$/)
    await expect(page).toHaveTitle('星云客户关系管理系统 - 角色管理')
    await expect(tabLabels(page)).toHaveText(['工作台', '角色管理'])

    // Mixed layout: a top-level menu jumps to its first leaf.
    await page.getByRole('menu', { name: '顶部菜单' }).getByRole('menuitem', { name: '基础信息管理' }).click()
    await expect(page).toHaveURL(/\/base-data\/store-center$/)
    // Each jump must have drawn its page (and so opened its tab) before the next click, else the
    // address moves on before the shell saw it: a user does not click faster than the page draws.
    await expect(paneOf(page, '/base-data/store-center')).toBeVisible()
    await page.getByRole('menu', { name: '顶部菜单' }).getByRole('menuitem', { name: '系统管理' }).click()
    await expect(page).toHaveURL(/\/system\/menu$/)
    await expect(paneOf(page, '/system/menu')).toBeVisible()
    await openMenu(page, undefined, '用户管理', '/system/user')
    await openMenu(page, '基础信息管理', '供应商信息', '/base-data/supplier')
    await expect(tabLabels(page)).toHaveText(['工作台', '角色管理', '仓库信息', '菜单管理', '用户管理', '供应商信息'])

    // 刷新 on the active tab: the page mounts afresh (a typed search condition is gone).
    const users = paneOf(page, '/system/user')
    await tab(page, '/system/user').click()
    const firstInput = users.locator('.ant-form input.ant-input').first()
    await firstInput.fill('zzz')
    const userSpin = await watchSpinner(page, '/system/user')
    await tabAction(page, '/system/user', '刷新')
    expect(await userSpin()).toBeGreaterThanOrEqual(190)
    await expect(users.locator('.ant-form input.ant-input').first()).toHaveValue('')
    // 刷新 on an inactive tab shows it with the longer spinner (500 ms), then the page.
    const roleSpin = await watchSpinner(page, '/system/role')
    await tabAction(page, '/system/role', '刷新')
    expect(await roleSpin()).toBeGreaterThanOrEqual(490)
    await expect(page).toHaveURL(/\/system\/role$/)
    await expect(paneOf(page, '/system/role').locator('.ant-table')).toBeVisible()

    await tabAction(page, '/system/user', '关闭左侧')
    await expect(tabLabels(page)).toHaveText(['工作台', '用户管理', '供应商信息'])
    // The active tab (角色管理) went away: the kept one is shown.
    await expect(page).toHaveURL(/\/system\/user$/)
    await tabAction(page, '/system/user', '关闭右侧')
    await expect(tabLabels(page)).toHaveText(['工作台', '用户管理'])
    await openMenu(page, undefined, '角色管理', '/system/role')
    await openMenu(page, undefined, '部门管理', '/system/dept')
    await tabAction(page, '/system/role', '关闭其他')
    await expect(tabLabels(page)).toHaveText(['工作台', '角色管理'])
    await tabAction(page, '/system/role', '关闭')
    await expect(tabLabels(page)).toHaveText(['工作台'])
    await expect(page).toHaveURL(/\/dashboard\/workplace$/)
    // The workplace cannot be closed; as the last tab it warns.
    await expect(tabBar(page).locator('.ant-tabs-tab-remove')).toHaveCount(0)
    await tabAction(page, '/dashboard/workplace', '关闭')
    await expect(toast(page, '这已经是最后一页，不能再关闭了！')).toBeVisible()

    // The lock fixes the tab bar under the header while the page scrolls.
    await openMenu(page, undefined, '用户管理', '/system/user')
    await openMenu(page, undefined, '角色管理', '/system/role')
    const lock = page.getByRole('button', { name: '锁定标签栏' })
    await lock.click()
    await expect(page.getByRole('button', { name: '解锁标签栏' })).toHaveAttribute('aria-pressed', 'true')
    await expect(tabBar(page)).toHaveCSS('position', 'sticky')

    // A reload restores the open tabs (session storage), the active page and the lock.
    await page.reload()
    await expect(tabLabels(page)).toHaveText(['工作台', '用户管理', '角色管理'])
    await expect(page).toHaveURL(/\/system\/role$/)
    await expect(paneOf(page, '/system/role').locator('.ant-table')).toBeVisible()
    await expect(tabBar(page)).toHaveClass(/is-locked/)
    await page.getByRole('button', { name: '解锁标签栏' }).click()
    await expect(tabBar(page)).not.toHaveClass(/is-locked/)
  })
})
