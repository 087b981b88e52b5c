import { test, expect, openScreen, toast, confirmBox, rowOf, uniqueSuffix, expectCells } from './helpers.js'

test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

/**
 * 接口令牌 (系统管理) in the browser: a token made with some keys is shown once and copied from its
 * dialog; an integration calling with `Authorization: Bearer` gets rows; once 吊销 in the list, the same
 * call is refused.
 */
test('接口令牌: create, copy, call with Bearer, revoke, refused', async ({ page, api, request }) => {
  const code = `TK${uniqueSuffix()}`
  await api.post('/basedata/customer', { code, name: `令牌客户${code}`, available: true })
  const name = `网店同步${code}`

  const pane = await openScreen(page, '/system/api-token')
  await pane.getByRole('button', { name: '新建令牌' }).click()
  const dialog = page.locator('.api-token-new')
  await dialog.getByLabel('令牌名称').fill(name)
  await dialog.getByText('30天', { exact: true }).click()
  await dialog.getByRole('searchbox', { name: '定位权限' }).fill('base-data:customer:query')
  await dialog.getByRole('searchbox', { name: '定位权限' }).press('Enter')
  const keyNode = (key: string) => dialog.locator('.ant-tree-treenode').filter({ has: page.locator(`[data-key="${key}"]`) })
  // Ticking the menu chooses it with its buttons; unticking one button leaves the rest.
  await keyNode('base-data:customer:query').locator('.ant-tree-checkbox').click()
  await expect(dialog.getByText('权限（已选 5 项）')).toBeVisible()
  await keyNode('base-data:customer:delete').locator('.ant-tree-checkbox').click()
  await expect(dialog.getByText('权限（已选 4 项）')).toBeVisible()
  await dialog.getByRole('button', { name: '创建' }).click()

  const shown = page.locator('.api-token-shown')
  await expect(shown.getByText('令牌只显示这一次，关闭后无法再次查看。请立即复制并妥善保存。')).toBeVisible()
  const written = (await shown.locator('.api-token-value').innerText()).trim()
  expect(written).toMatch(/^xyt_[A-Za-z0-9_-]{20,}$/)
  await shown.getByRole('button', { name: '复制' }).click()
  await expect(toast(page, '已复制到剪贴板')).toBeVisible()
  const token = await page.evaluate(() => navigator.clipboard.readText())
  expect(token).toBe(written)
  await shown.getByRole('button', { name: '我已保存' }).click()
  await expect(shown).toBeHidden()

  const customers = await request.get('/cloud-api/basedata/customer/query', { headers: { Authorization: `Bearer ${token}` }, params: { code, pageSize: 10 } })
  expect(customers.status()).toBe(200)
  const body = (await customers.json()) as { code: number; data: { totalCount: number; datas: { code: string }[] } }
  expect(body.code).toBe(200)
  expect(body.data.datas.map((r) => r.code)).toContain(code)
  // The token carries only its keys.
  const users = await request.get('/cloud-api/system/user/query', { headers: { Authorization: `Bearer ${token}` } })
  expect(await users.json()).toMatchObject({ code: 403, msg: '无权限' })

  const row = rowOf(pane, name)
  await expect(row).toHaveCount(1)
  await expectCells(row, { 权限数: '4', 状态: '有效', 所属用户: 'admin' })
  await expect(row).toContainText(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/)
  await row.getByRole('button', { name: '吊销' }).click()
  const confirm = confirmBox(page, `确定吊销令牌「${name}」吗？`)
  await confirm.getByRole('button', { name: '吊销' }).click()
  await expect(toast(page, '令牌已吊销')).toBeVisible()
  await expect(row).toHaveCount(0)

  const refused = await request.get('/cloud-api/basedata/customer/query', { headers: { Authorization: `Bearer ${token}` }, params: { code } })
  expect(refused.status()).toBe(401)
  expect(await refused.json()).toMatchObject({ code: 401, msg: '接口令牌无效或已过期！' })
})
