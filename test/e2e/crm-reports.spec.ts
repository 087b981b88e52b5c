import type { Browser, Page } from '@playwright/test'
import { expect, openScreen, roleWithKeys, rowOf, signIn, test, toast, uniqueSuffix, userInRole, type AdminApi } from './helpers.js'

const KEYS = ['crm:weekly-report:query', 'crm:weekly-report:add', 'crm:reimburse:query', 'crm:reimburse:add', 'crm:reimburse:modify', 'crm:reimburse:approve']

/** A department led by a manager, a salesperson in it, both holding the CRM report and claim keys. */
async function team(api: AdminApi, s: string) {
  const roleId = await roleWithKeys(api, { code: `CR${s}`, name: `销售${s}` }, KEYS)
  const user = (name: string, username: string, deptIds: string[]) => userInRole(api, roleId, { username, name, deptIds })
  const manager = await user(`经理${s}`, `mgr${s}`.toLowerCase(), [])
  const dept = await api.post<string>('/system/dept', { code: `D${s}`, name: `销售部${s}`, shortName: `销售${s}`, available: true, leaderId: manager.id })
  const sales = await user(`销售${s}`, `sal${s}`.toLowerCase(), [dept])
  return { manager, sales }
}

async function as(browser: Browser, user: { username: string; password: string }, work: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } })
  try {
    const page = await context.newPage()
    await signIn(page, user.username, user.password)
    await work(page)
  } finally {
    await context.close()
  }
}

/**
 * A salesperson writes a weekly report (statistics beside it) and files an expense claim whose total
 * is exact (0.1 + 0.2 = 0.30); the department's leader finds it in 报销审批 and passes it.
 */
test('work report and expense claim: write, claim with an exact total, approve by the leader', async ({ browser, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  const { manager, sales } = await team(api, s)

  await as(browser, sales, async (page) => {
    const reports = await openScreen(page, '/crm/work-report/weekly')
    await expect(reports.getByText('周报统计')).toBeVisible()
    // The salesperson follows only themselves and still has a chart: their own bars, drawn.
    await expect(reports.getByRole('img', { name: '工作统计图' }).locator('canvas')).toBeVisible()
    await reports.getByRole('button', { name: '写周报' }).click()
    await expect(page).toHaveURL(/\/crm\/work-report\/weekly\/add$/)
    const add = page.locator('.shell-pane:visible')
    await add.getByLabel('工作内容').fill(`拜访客户${s}共5家`)
    await add.getByLabel('工作计划').fill('跟进3个商机')
    await add.getByRole('button', { name: '提交', exact: true }).click()
    await expect(toast(page, '提交成功！')).toBeVisible()
    const row = rowOf(reports, `拜访客户${s}`)
    await expect(row).toBeVisible()
    await row.getByRole('button', { name: '查看' }).click()
    const detail = page.locator('.shell-pane:visible')
    await expect(detail).toContainText(`${sales.name}的周报`)
    await expect(detail).toContainText('跟进3个商机')
    // The author's own figures of the week: one report handed in.
    await expect(detail.locator('.ant-table-row').filter({ hasText: sales.name })).toContainText('1')

    const claims = await openScreen(page, '/crm/reimburse')
    await claims.getByRole('button', { name: '新增报销单' }).click()
    const form = page.locator('.shell-pane:visible')
    await expect(form).toContainText(manager.name)
    await form.getByLabel('报销事由').fill(`客户拜访${s}`)
    await form.getByRole('combobox', { name: '第1行费用类别' }).click({ force: true })
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '交通费' }).click()
    await form.getByRole('spinbutton', { name: '第1行金额' }).fill('0.1')
    await form.getByRole('button', { name: '添加明细' }).click()
    await form.getByRole('combobox', { name: '第2行费用类别' }).click({ force: true })
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '餐饮费' }).click()
    await form.getByRole('spinbutton', { name: '第2行金额' }).fill('0.2')
    await expect(form).toContainText('¥ 0.30')
    await form.getByRole('button', { name: '提交审批' }).click()
    await expect(toast(page, '提交成功，等待审批！')).toBeVisible()
    const claim = rowOf(claims, `客户拜访${s}`)
    await expect(claim).toContainText('0.30')
    await expect(claim).toContainText('待审核')
  })

  await as(browser, manager, async (page) => {
    const claims = await openScreen(page, '/crm/reimburse')
    await claims.getByRole('tab', { name: /报销审批/ }).click()
    const row = rowOf(claims, `客户拜访${s}`)
    await expect(row).toContainText(sales.name)
    await row.getByRole('button', { name: '审批' }).click()
    const detail = page.locator('.shell-pane:visible')
    await expect(detail).toContainText('0.30')
    await expect(detail).toContainText('交通费')
    await detail.getByRole('button', { name: '审批通过' }).click()
    await expect(toast(page, '审批通过！')).toBeVisible()
    await expect(rowOf(claims, `客户拜访${s}`)).toHaveCount(0)
  })
})
