import { expect, openScreen, test, toast, uniqueSuffix } from './helpers.js'

/**
 * 新增菜单 proposes what it can: the next 编号 and a route path from the parent's path and the title
 * (the admin's own typing stays); the parent picker lists directories and pages, not buttons; a
 * duplicate 编号 names the menu that has it.
 */
test('新增菜单: proposed 编号 and 路由路径, a parent picker without buttons, a duplicate named', async ({ page, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  const base = `/mp${s.toLowerCase()}`
  const catalog = await api.post<string>('/system/menu', { code: `MP${s}`, title: `提案目录${s}`, name: `mp${s}`, display: 0, path: base, available: true })
  const pageId = await api.post<string>('/system/menu', { code: `MP${s}1`, title: `提案页面${s}`, display: 1, parentId: catalog, path: `${base}/page`, available: true })
  await api.post('/system/menu', { code: `MP${s}2`, title: `提案按钮${s}`, display: 2, parentId: pageId, permission: `mp${s}:add`, available: true })

  const pane = await openScreen(page, '/system/menu')
  await pane.getByRole('button', { name: '新增', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: '新增菜单' })
  const code = dialog.getByRole('textbox', { name: '编号', exact: true })
  const path = dialog.getByRole('textbox', { name: '路由路径', exact: true })

  await test.step('the 编号 is proposed', async () => {
    await expect(code).toHaveValue(/^M\d{4,}$/)
  })

  await test.step('the parent picker offers the directory and the page, not the button', async () => {
    await dialog.getByRole('textbox', { name: '上级菜单', exact: true }).click()
    const picker = page.getByRole('dialog', { name: '选择菜单' })
    await picker.getByPlaceholder('请输入名称').fill(`提案`)
    await picker.getByRole('button', { name: '查询', exact: true }).click()
    const nodes = picker.locator('.ant-tree-treenode')
    await expect(nodes.filter({ hasText: `MP${s}1` }).first()).toBeVisible()
    await expect(nodes.filter({ hasText: `MP${s} ` }).first()).toBeVisible()
    await expect(nodes.filter({ hasText: `MP${s}2` })).toHaveCount(0)
    await nodes.filter({ hasText: `MP${s} ` }).first().locator('.ant-tree-node-content-wrapper').click()
    await picker.getByRole('button', { name: '确定', exact: true }).click()
    await expect(picker).toBeHidden()
  })

  await test.step('the route path follows the parent and the title until the admin types one', async () => {
    await dialog.getByRole('textbox', { name: '名称', exact: true }).fill('客户列表')
    await expect(path).toHaveValue(`${base}/ke-hu-lie-biao`)
    await path.fill(`${base}/customers`)
    await dialog.getByRole('textbox', { name: '名称', exact: true }).fill('客户清单')
    await expect(path).toHaveValue(`${base}/customers`)
  })

  await test.step('a duplicate 编号 names the menu that has it', async () => {
    await code.fill(`MP${s}1`)
    await dialog.getByRole('button', { name: '确定', exact: true }).click()
    await expect(toast(page, `编号已被菜单【提案页面${s}】使用，请重新输入`)).toBeVisible()
    await expect(dialog).toBeVisible()
  })
})
