import type { Page } from '@playwright/test'
import { ADMIN, expect, openMenu, openScreen, paneOf, signIn, test, uniqueSuffix } from './helpers.js'

/**
 * The session seen from the browser: the 401 relogin dialog once the server forgot the session, the
 * telephone login tab, and the workplace order chart (empty until GET /chart/order answers rows).
 */

const reloginDialog = (page: Page) => page.locator('.ant-modal-confirm').filter({ hasText: '确认重新登录' })

test.describe('own session', () => {
  // These tests sign in for themselves: ending the worker's shared session would break other tests.
  test.use({ storageState: { cookies: [], origins: [] } })

  test('sign in on the login page; a session deleted on the server opens 确认重新登录; 取消 stays, 重新登录 signs out @pg', async ({ page, request }) => {
    await signIn(page, ADMIN.username, ADMIN.password)
    await openMenu(page, '系统管理', '用户管理', '/system/user')
    const token = await page.evaluate(() => localStorage.getItem('X-Auth-Token'))
    expect(token).toBeTruthy()
    const logout = await request.post('/cloud-api/auth/logout', { headers: { 'X-Auth-Token': token! } })
    expect(logout.ok()).toBe(true)

    // Any call of the page now answers 401, e.g. the list's 查询. One the page still had under way (the
    // list's first load on a busy machine, the bell's poll) may get there first: then the dialog already
    // covers the list and a click on 查询 could never land (seen once in a whole run).
    const pane = paneOf(page, '/system/user')
    const query = () =>
      expect(async () => {
        if (await reloginDialog(page).isVisible()) return
        await pane.getByRole('button', { name: '查询' }).click({ timeout: 2_000 })
      }).toPass({ timeout: 20_000 })
    await query()
    await expect(reloginDialog(page)).toContainText('您已长时间未操作，已被退出登录，请重新登录！')
    await reloginDialog(page).getByRole('button', { name: '取消' }).click()
    await expect(reloginDialog(page)).toHaveCount(0)
    await expect(page).toHaveURL(/\/system\/user$/)

    await query()
    await reloginDialog(page).getByRole('button', { name: '重新登录' }).click()
    await expect(page).toHaveURL(/\/login$/)
    expect(await page.evaluate(() => [localStorage.getItem('X-Auth-Token'), localStorage.getItem('admin.user')])).toEqual([null, null])
  })

  test('telephone login tab asks the server for an SMS code', async ({ page }) => {
    await page.goto('/login')
    await expect(page).toHaveTitle('星云客户关系管理系统 - 登录')
    // Registration is closed by default (parameter auth.regist.enabled).
    await expect(page.getByRole('button', { name: '注册账号' })).toHaveCount(0)
    await page.getByRole('tab', { name: '手机号登录' }).click()
    await page.getByLabel('手机号', { exact: true }).fill('123')
    await page.getByRole('button', { name: '获取验证码' }).click()
    await expect(page.getByText('手机号码格式不正确')).toBeVisible()
    // An unbound number is answered like a bound one (numbers cannot be probed); nothing is sent to it.
    await page.getByLabel('手机号', { exact: true }).fill('13900000000')
    await page.getByRole('button', { name: '获取验证码' }).click()
    await expect(page.getByText('验证码已发送，请注意查收')).toBeVisible()
    await expect(page.getByRole('button', { name: /秒后重新获取/ })).toBeDisabled()
  })
})

test('workplace order chart: empty without approved orders, drawn lazily from the real /chart/order', async ({ page, api }) => {
  const chunks: string[] = []
  page.on('request', (r) => {
    if (r.resourceType() === 'script') chunks.push(r.url())
  })
  const card = page.locator('.workplace-order-chart')
  // Other specs share this server and may have approved orders already: answer "none" for the first look.
  await page.route('**/cloud-api/chart/order*', (route) => route.fulfill({ json: { code: 200, msg: '', data: [] } }))
  await openScreen(page, '/dashboard/workplace')
  await expect(card.locator('.ant-empty')).toContainText('暂无订单数据')
  expect(chunks.some((u) => /\/echarts-[^/]+\.js$/.test(u))).toBe(false)
  await page.unroute('**/cloud-api/chart/order*')

  // An order approved today through the real API appears in the real chart.
  const s = uniqueSuffix()
  const scId = await api.post<string>('/basedata/storecenter', { code: `CW${s}`, name: `图表仓${s}` })
  const supplierId = await api.post<string>('/basedata/supplier', { code: `CS${s}`, name: `图表供应商${s}`, mnemonicCode: 'TB', settleType: 1, manageType: 1 })
  const categoryId = await api.post<string>('/basedata/product/category', { code: `CC${s}`, name: `图表类目${s}` })
  const brandId = await api.post<string>('/basedata/product/brand', { code: `CB${s}`, name: `图表品牌${s}` })
  const productId = await api.post<string>('/basedata/product', {
    code: `CP${s}`, name: `图表商品${s}`, skuCode: `CK${s}`, categoryId, brandId, productType: 1, taxRate: 17, saleTaxRate: 17,
  })
  const payTypeId = await api.post<string>('/basedata/paytype', { code: `CT${s}`, name: `图表现金${s}`, recText: false })
  await api.post('/purchase/order/approve/pass/direct', {
    scId, supplierId, products: [{ productId, orderNum: 3, taxPrice: '400.00' }], payTypes: [{ id: payTypeId, payAmount: '1200.00' }],
  })
  await page.reload()
  await expect(card.locator('.workplace-chart canvas')).toBeVisible()
  expect(chunks.some((u) => /\/echarts-[^/]+\.js$/.test(u))).toBe(true)
  await card.getByText('金额', { exact: true }).click()
  await expect(card.locator('.workplace-chart canvas')).toBeVisible()
})
