import { expect, signIn, test, uniqueSuffix } from './helpers.js'

/**
 * The bell's 消息 tab (000 §2) shows the bus messages sent to the signed-in user: an online Excel the
 * administrator sends to a fresh user (through the API) is listed there by its title, newest first, and
 * leads to where it can be opened. A fresh user, so no other spec's messages are in their bell.
 */
test('the bell 消息 tab lists a message sent to the user and opens where it leads', async ({ browser, api }) => {
  const s = uniqueSuffix()
  const username = `bell${s}`.toLowerCase()
  const userId = await api.post<string>('/system/user', { code: `BL${s}`, name: `收件人${s}`, username, password: 'secret123', gender: 0, available: true })
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } })
  const page = await context.newPage()
  await signIn(page, username, 'secret123')
  const bell = page.locator('button.notice-bell')
  const panel = page.locator('.notice-bell-panel')
  await expect(bell).toBeVisible()

  const sheetName = `月报${s}`
  const sheet = await api.post<string>('/sw/excel', { name: sheetName })
  await api.post('/sw/excel/send', { id: sheet, userId })

  // The message arrives on the bus (the tab also reloads when it is opened): open the 消息 tab until it is listed.
  const messages = panel.getByRole('tabpanel', { name: '消息' })
  const item = messages.locator('.notice-bell-item').filter({ hasText: `发送了在线Excel：${sheetName}` })
  await expect(async () => {
    if (!(await panel.isVisible())) await bell.click()
    const tab = panel.getByRole('tab', { name: '消息', exact: true })
    await tab.click({ timeout: 5_000 })
    await expect(tab).toHaveAttribute('aria-selected', 'true', { timeout: 5_000 })
    // The tab's read may take seconds on a busy machine: each try waits for it, not only for a fast answer.
    await expect(item).toBeVisible({ timeout: 10_000 })
  }).toPass({ timeout: 60_000 })
  // Listed once: the personal notice of the same send is the 通知 tab's.
  await expect(item).toHaveCount(1)
  await expect(messages.getByText('暂无消息')).toHaveCount(0)
  await expect(item).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/)
  await item.getByRole('button').click()
  await expect(page).toHaveURL(/\/smart-work\/online-excel$/)
  await context.close()
})
