import type { Locator, Page } from '@playwright/test'
import { confirmBox, expect, openScreen, rowOf, signIn, test, toast, uniqueSuffix } from './helpers.js'

/**
 * 设置数据权限 on a role: the designer refuses a condition at the top level, checks before preview,
 * previews the SQL, saves; the saved tree comes back when the dialog opens again, and it narrows the
 * product list and the product picker of a user who has the role.
 */

/** Picks an option of the antd Select whose combobox has this name (the selected item covers the input). */
async function choose(page: Page, scope: Locator, combobox: string, option: string): Promise<void> {
  await scope.locator('.ant-select').filter({ has: page.getByRole('combobox', { name: combobox, exact: true }) }).click()
  const dropdown = page.locator('.ant-select-dropdown:visible')
  await dropdown.locator('.ant-select-item-option', { hasText: new RegExp(`^${option}$`) }).click()
  await expect(dropdown).toHaveCount(0)
}

/** Drags with the pointer (dnd-kit starts after a few pixels of movement). */
async function drag(page: Page, from: Locator, to: Locator): Promise<void> {
  const a = (await from.boundingBox())!
  const b = (await to.boundingBox())!
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2)
  await page.mouse.down()
  await page.mouse.move(a.x + a.width / 2 + 12, a.y + a.height / 2, { steps: 4 })
  await page.mouse.move(b.x + b.width / 2, b.y + b.height - 10, { steps: 12 })
  await page.mouse.up()
}

test('data permission of a role narrows the product list and the product picker of its users', async ({ page, api, browser }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  const codes = { a1: `A${s}-1`, a2: `A${s}-2`, b1: `B${s}-1` }
  const role = { code: `DR${s}`, name: `限A商品${s}` }
  const user = { username: `dp${s.toLowerCase()}`, password: 'secret123' }

  await test.step('test data: products, a role with the product query menu, a user with the role', async () => {
    const categoryId = await api.post<string>('/basedata/product/category', { code: `DC${s}`, name: `数据权限类目${s}`, available: true })
    const brandId = await api.post<string>('/basedata/product/brand', { code: `DB${s}`, name: `数据权限品牌${s}`, available: true })
    for (const code of Object.values(codes))
      await api.post('/basedata/product', {
        code,
        name: `商品${code}`,
        skuCode: `S${code}`,
        categoryId,
        brandId,
        productType: 1,
        taxRate: 17,
        saleTaxRate: 17,
        available: true,
      })
    const roleId = await api.post<string>('/system/role', { ...role, available: true })
    const userId = await api.post<string>('/system/user', { code: `DU${s}`, name: `限权用户${s}`, ...user, gender: 0, available: true })
    const menus = await api.get<{ id: string; parentId: string | null; permission: string | null }[]>('/system/role/menu/menus', { roleId })
    // The product list, and adding purchase orders (whose line table picks products), each function
    // menu with its catalogs as the 授权 dialog grants it.
    const granted: string[] = []
    for (const key of ['base-data:product:info:query', 'purchase:order:query', 'purchase:order:add']) {
      const menu = menus.find((m) => m.permission === key)!
      granted.push(menu.id)
      for (let p = menu.parentId; p; p = menus.find((m) => m.id === p)?.parentId ?? null) if (!granted.includes(p)) granted.push(p)
    }
    await api.post('/system/role/menu/setting', { roleIds: [roleId], menuIds: granted })
    await api.post('/system/user/role/setting', { userIds: [userId], roleIds: [roleId] })
  })

  const roles = await openScreen(page, '/system/role')
  const dialog = page.getByRole('dialog', { name: '设置数据权限' })
  const product = dialog.locator('.ant-tabs-tabpane-active')
  const tree = product.getByRole('region', { name: '数据权限条件树' })

  await test.step('build AND(编号 starts with A…) in the 商品 tab, with the designer\'s checks', async () => {
    await rowOf(roles, role.code).getByRole('button', { name: '数据权限' }).click()
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('tab', { name: '商品' })).toHaveAttribute('aria-selected', 'true')
    await expect(dialog.getByRole('tab', { name: '单据' })).toBeVisible()
    await expect(product.getByRole('region', { name: '商品节点' }).getByRole('button')).toHaveText(
      ['并且', '或者', '编号', '名称', '简称', 'SKU', '外部编号', '品类编号', '品类名称', '品牌编号', '品牌名称', '规格', '单位', '状态', '创建时间'],
    )

    // A condition at the top level is refused and not added.
    await product.getByRole('button', { name: '编号', exact: true }).click()
    await expect(toast(page, '此区域只允许添加运算节点')).toBeVisible()
    await expect(tree.getByRole('group')).toHaveCount(0)

    await product.getByRole('button', { name: '并且', exact: true }).click()
    const and = tree.getByRole('group', { name: '运算节点 并且' })
    await expect(and).toBeVisible()
    await dialog.getByRole('button', { name: '预览' }).click()
    await expect(toast(page, '运算节点必须包含子节点')).toBeVisible()

    // The new operation node is selected: a click on a condition adds into it.
    await product.getByRole('button', { name: '编号', exact: true }).click()
    const code = and.getByRole('group', { name: '条件节点 编号' })
    await expect(code).toBeVisible()
    await dialog.getByRole('button', { name: '预览' }).click()
    await expect(toast(page, '节点：【编号】请输入值')).toBeVisible()

    await choose(page, code, '编号的条件', '开头')
    await code.getByLabel('编号的值').fill(`A${s}`)

    // Drag and drop: 名称 into the AND node, then delete it (condition confirmation).
    await drag(page, product.getByRole('button', { name: '名称', exact: true }), and.locator('.dp-calc-body'))
    const name = and.getByRole('group', { name: '条件节点 名称' })
    await expect(name).toBeVisible()
    await name.getByRole('button', { name: '删除条件节点 名称' }).click()
    await confirmBox(page, '确认删除此节点？').getByRole('button', { name: '确定' }).click()
    await expect(name).toHaveCount(0)

    // An OR at the top level, deleted with the operation-node confirmation.
    await tree.click({ position: { x: 20, y: 340 } })
    await product.getByRole('button', { name: '或者', exact: true }).click()
    const or = tree.getByRole('group', { name: '运算节点 或者' })
    await or.getByRole('button', { name: '删除运算节点 或者' }).click()
    await confirmBox(page, '确认删除此节点以及包含的子节点？').getByRole('button', { name: '确定' }).click()
    await expect(or).toHaveCount(0)

    await dialog.getByRole('button', { name: '预览' }).click()
    await expect(product.getByRole('region', { name: '商品预览SQL' })).toContainText(`(product.code LIKE 'A${s}%')`)
  })

  await test.step('save; opening again shows the saved tree', async () => {
    await dialog.getByRole('button', { name: '确定' }).click()
    await expect(toast(page, '保存成功！')).toBeVisible()
    await expect(dialog).toBeHidden()

    await rowOf(roles, role.code).getByRole('button', { name: '数据权限' }).click()
    const code = tree.getByRole('group', { name: '运算节点 并且' }).getByRole('group', { name: '条件节点 编号' })
    await expect(code).toBeVisible()
    await expect(code.getByLabel('编号的值')).toHaveValue(`A${s}`)
    await expect(code.locator('.ant-select-selection-item')).toHaveText('开头')
    await dialog.getByRole('button', { name: '取消' }).click()
    await expect(dialog).toBeHidden()
  })

  await test.step('the role\'s user sees only the products whose code starts with A…', async () => {
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    try {
      const userPage = await context.newPage()
      await signIn(userPage, user.username, user.password)
      const products = await openScreen(userPage, '/product/info')
      await products.getByPlaceholder('请输入编号').fill(s)
      await products.getByRole('button', { name: '查询' }).click()
      await expect(rowOf(products, codes.a1)).toBeVisible()
      await expect(rowOf(products, codes.a2)).toBeVisible()
      await expect(products.locator('.ant-table-row')).toHaveCount(2)
      await expect(rowOf(products, codes.b1)).toHaveCount(0)

      // The product picker of a purchase order's line table is narrowed the same way.
      const list = await openScreen(userPage, '/purchase/order')
      await list.getByRole('button', { name: '新增', exact: true }).click()
      const order = userPage.locator('.shell-pane:visible')
      await order.getByRole('button', { name: '添加商品' }).click()
      const picker = userPage.getByRole('dialog', { name: '选择商品' })
      await picker.getByPlaceholder('请输入编号').fill(s)
      await picker.getByRole('button', { name: '查询' }).click()
      await expect(rowOf(picker, codes.a1)).toBeVisible()
      await expect(rowOf(picker, codes.a2)).toBeVisible()
      await expect(picker.locator('.ant-table-row')).toHaveCount(2)
      await expect(rowOf(picker, codes.b1)).toHaveCount(0)
    } finally {
      await context.close()
    }
    // The administrator is not restricted.
    const all = await api.get<{ datas: { code: string }[] }>('/basedata/product/query', { code: s })
    expect(all.datas.map((d) => d.code).sort()).toEqual([codes.a1, codes.a2, codes.b1])
  })
})
