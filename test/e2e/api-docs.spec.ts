import { test, expect, openScreen, expectCells } from './helpers.js'

/**
 * 接口文档 (开发管理) in the browser: the index of every call opens at once and finds a call by a part of its
 * path; the call's path opens the Scalar reference of its group at that call (no other group's calls in it);
 * 返回接口目录 shows the index as it was left, and 完整文档 the reference of every call.
 */
test('接口文档: find a call, open its group at it, come back to the search', async ({ page }) => {
  const pane = await openScreen(page, '/development/api-docs')
  await expect(pane.locator('.ant-table-row').first()).toBeVisible()
  const keyword = 'PATCH /sale/out/sheet/approve/pass'
  await pane.getByLabel('关键字', { exact: true }).fill(keyword)
  await pane.getByRole('button', { name: '查询', exact: true }).click()
  // The call and its batch form.
  await expect(pane.locator('.ant-table-row')).toHaveCount(2)
  const row = pane.locator('.ant-table-row').filter({ has: page.getByText('/sale/out/sheet/approve/pass', { exact: true }) })
  await expectCells(row, { 请求方式: 'PATCH', 分组: 'sale', 调用条件: '需权限键' })
  await expect(row).toContainText('sale:out:approve')

  await row.getByText('/sale/out/sheet/approve/pass', { exact: true }).click()
  const reference = pane.locator('.api-docs')
  await expect(reference.getByRole('heading', { name: /sale\/out\/sheet\/approve\/pass/ }).first()).toBeInViewport({ timeout: 30_000 })
  // The way back stays in view over the scrolled reference.
  await expect(pane.getByRole('button', { name: '返回接口目录' })).toBeInViewport()
  await expect(page).toHaveURL(/#tag\/sale\/PATCH\/sale\/out\/sheet\/approve\/pass$/)
  // One group in its side list: sale's calls, no other group.
  await expect(reference.getByText('sale', { exact: true }).first()).toBeAttached()
  await expect(reference.getByText('purchase', { exact: true })).toHaveCount(0)

  await pane.getByRole('button', { name: '返回接口目录' }).click()
  await expect(reference).toHaveCount(0)
  await expect(pane.getByLabel('关键字', { exact: true })).toHaveValue(keyword)
  await expect(pane.locator('.ant-table-row')).toHaveCount(2)
  expect(new URL(page.url()).hash).toBe('')

  await pane.getByRole('button', { name: '完整文档' }).click()
  const whole = pane.locator('.api-docs')
  await expect(whole.getByText('purchase', { exact: true }).first()).toBeAttached({ timeout: 30_000 })
  await expect(whole.getByText('sale', { exact: true }).first()).toBeAttached()
})
