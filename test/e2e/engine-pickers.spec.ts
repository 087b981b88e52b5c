import { chooseOption, expect, openMenu, openScreen, rowOf, searchPicker, test, toast, uniqueSuffix, type AdminApi, expectPicked } from './helpers.js'

/**
 * Pickers of the generic forms on the real server: the category tree picker (single, in the product
 * form, and multiple, in the product-property form), the paged brand picker (single in the product
 * form, multiple in the product list's search form, whose brand condition is IN) and a multiple paged
 * picker in a form (the user's 岗位).
 */

// Each test takes 5-10 s alone; the margin is for a machine busy with other runs.
test.describe.configure({ timeout: 60_000 })

interface Named {
  id: string
  code: string
  name: string
}

async function create(api: AdminApi, base: string, body: Record<string, unknown>): Promise<Named> {
  const id = await api.post<string>(base, body)
  return { id, code: String(body.code), name: String(body.name) }
}

/** A parent category with one child, made through the API for this test only. */
async function categories(api: AdminApi) {
  const s = uniqueSuffix()
  const parent = await create(api, '/basedata/product/category', { code: `C${s}`, name: `饮料${s}` })
  const child = await create(api, '/basedata/product/category', { code: `C${s}01`, name: `果汁${s}`, parentId: parent.id })
  return { s, parent, child }
}

/** Three brands, made through the API for this test only. */
async function brands(api: AdminApi): Promise<Named[]> {
  const s = uniqueSuffix()
  const made: Named[] = []
  for (const [i, name] of ['农夫山泉', '康师傅', '统一'].entries())
    made.push(await create(api, '/basedata/product/brand', { code: `B${s}${i + 1}`, name: `${name}${s}` }))
  return made
}

test('product form: the category tree picker and the brand picker fill the form, and the product saves', async ({ page, api }) => {
  const { s, parent, child } = await categories(api)
  const brand = await brands(api)
  const pane = await openMenu(page, '商品中心', '商品管理', '/product/info')
  await pane.getByRole('button', { name: '新增', exact: true }).click()
  const form = page.getByRole('dialog', { name: '新增商品' })
  await expect(form).toBeVisible()

  await test.step('pick the child category in the tree picker (the parent cannot be chosen)', async () => {
    const input = form.getByRole('textbox', { name: '类目', exact: true })
    await input.click()
    const tree = page.getByRole('dialog', { name: '选择商品类目' })
    await expect(tree).toBeVisible()
    // The tree opens expanded: the child is shown under its parent. Enter in 编号 searches (every picker does).
    await tree.getByPlaceholder('请输入编号').fill(parent.code)
    await tree.getByPlaceholder('请输入编号').press('Enter')
    const parentNode = tree.locator('.ant-tree-treenode', { hasText: `${parent.code} ${parent.name}` })
    const childNode = tree.locator('.ant-tree-treenode', { hasText: `${child.code} ${child.name}` })
    await expect(parentNode).toBeVisible()
    await expect(childNode).toBeVisible()
    await expect(tree.getByRole('treeitem')).toHaveCount(2)
    // A product's 类目 is leaf-only: the parent cannot be chosen (确定 then finds nothing chosen), the leaf can.
    await parentNode.locator('.ant-tree-node-content-wrapper').click()
    await expect(parentNode.locator('.ant-tree-node-selected')).toHaveCount(0)
    await tree.getByRole('button', { name: '确定', exact: true }).click()
    await expect(toast(page, '请选择数据！')).toBeVisible()
    await expect(tree).toBeVisible()
    // A click chooses, 确定 confirms.
    await childNode.locator('.ant-tree-node-content-wrapper').click()
    await expect(childNode.locator('.ant-tree-node-selected')).toBeVisible()
    await tree.getByRole('button', { name: '确定', exact: true }).click()
    await expect(tree).toBeHidden()
    await expectPicked(input, child.code, child.name)
  })

  await test.step('pick a brand by double-click in the paged picker', async () => {
    await form.getByRole('textbox', { name: '品牌', exact: true }).click()
    const picker = page.getByRole('dialog', { name: '选择商品品牌' })
    await searchPicker(picker, ...brand.map((b) => b.code))
    for (const b of brand) await expect(rowOf(picker, b.code)).toContainText(b.name)
    await rowOf(picker, brand[1].code).dblclick()
    await expect(picker).toBeHidden()
    await expectPicked(form.getByRole('textbox', { name: '品牌', exact: true }), brand[1].code, brand[1].name)
  })

  await test.step('save the product: the list shows the picked category and brand by name', async () => {
    const code = `P${s}`
    await form.getByRole('textbox', { name: '编号', exact: true }).fill(code)
    await form.getByRole('textbox', { name: '名称', exact: true }).fill(`橙汁${s}`)
    await form.getByRole('textbox', { name: 'SKU', exact: true }).fill(`SKU${s}`)
    await chooseOption(page, form, '进项税率（%）', '17%')
    await chooseOption(page, form, '销项税率（%）', '17%')
    await form.getByRole('button', { name: '确定', exact: true }).click()
    await expect(toast(page, '新增成功！')).toBeVisible()
    await expect(form).toBeHidden()
    // The list holds every spec's products: find this one by its code.
    await pane.getByPlaceholder('请输入编号').first().fill(code)
    await pane.getByRole('button', { name: '查询', exact: true }).click()
    const row = rowOf(pane, code)
    await expect(row).toContainText(child.name)
    await expect(row).toContainText(brand[1].name)
  })
})

test('multiple tree picker: two categories ticked in the product-property form', async ({ page, api }) => {
  const { parent, child } = await categories(api)
  const pane = await openScreen(page, '/product/property')
  await pane.getByRole('button', { name: '新增', exact: true }).click()
  const form = page.getByRole('dialog', { name: '新增商品属性' })
  await expect(form).toBeVisible()
  const input = form.getByRole('textbox', { name: '类目', exact: true })
  const tree = page.getByRole('dialog', { name: '选择商品类目' })
  // A click during the form dialog's opening animation may not reach the input: click until the picker is open.
  await expect(async () => {
    await input.click()
    await expect(tree).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 15_000 })
  // The footer counts the ticks; the tree shows this test's two categories (of many made by other tests).
  await expect(tree.getByText('已选择 0 项', { exact: true })).toBeVisible()
  await searchPicker(tree, parent.code, child.code)
  for (const node of [parent, child])
    await tree.locator('.ant-tree-treenode', { hasText: `${node.code} ${node.name}` }).locator('.ant-tree-checkbox').click()
  await expect(tree.getByText('已选择 2 项')).toBeVisible()
  await tree.getByRole('button', { name: '确定', exact: true }).click()
  await expect(tree).toBeHidden()
  await expect(input).toHaveValue(`${parent.code}，${child.code}`)
  await form.getByRole('button', { name: '取消', exact: true }).click()
  await expect(form).toBeHidden()
})

test('multiple paged picker: two positions ticked for a user, saved and shown again', async ({ page, api }) => {
  const s = uniqueSuffix()
  const positions = [
    await create(api, '/system/position', { code: `J${s}1`, name: `质检员${s}` }),
    await create(api, '/system/position', { code: `J${s}2`, name: `理货员${s}` }),
  ]
  const user = { code: `U${s}`, name: `多岗位${s}`, username: `multi${s}`.toLowerCase().slice(0, 16) }

  // By address: 系统管理 would first open 菜单管理, whose expanded tree table takes seconds to draw.
  const pane = await openScreen(page, '/system/user')
  await pane.getByRole('button', { name: '新增', exact: true }).click()
  const form = page.getByRole('dialog', { name: '新增用户' })
  const input = form.getByRole('textbox', { name: '岗位', exact: true })

  await test.step('tick two rows: the footer counts them and 查看 lists them', async () => {
    await input.click()
    const picker = page.getByRole('dialog', { name: '选择岗位' })
    await picker.getByLabel('编号', { exact: true }).fill(`J${s}`)
    await picker.getByRole('button', { name: '查询', exact: true }).click()
    await expect(picker.locator('.ant-table-row')).toHaveCount(2)
    await expect(picker.getByText('已选择 0 项')).toBeVisible()
    for (const p of positions) await rowOf(picker, p.code).getByRole('checkbox').check()
    await expect(picker.getByText('已选择 2 项')).toBeVisible()
    await picker.getByText('查看', { exact: true }).click()
    const list = page.locator('.ant-popover:visible')
    await expect(list.getByRole('listitem')).toHaveText(positions.map((p) => `${p.code} ${p.name}`))
    await picker.getByRole('button', { name: '确定', exact: true }).click()
    await expect(picker).toBeHidden()
    await expect(input).toHaveValue(`${positions[0].code}，${positions[1].code}`)
  })

  await test.step('the user saves with both positions, and 修改 shows them again', async () => {
    await form.getByRole('textbox', { name: '编号', exact: true }).fill(user.code)
    await form.getByRole('textbox', { name: '姓名', exact: true }).fill(user.name)
    await form.getByRole('textbox', { name: '用户名', exact: true }).fill(user.username)
    await form.getByLabel('密码', { exact: true }).fill('Multi123456')
    await form.getByRole('button', { name: '确定', exact: true }).click()
    await expect(toast(page, '新增成功！')).toBeVisible()
    await expect(form).toBeHidden()
    await rowOf(pane, user.username).getByRole('button', { name: '修改', exact: true }).click()
    const modify = page.getByRole('dialog', { name: '修改用户' })
    await expect(modify.getByRole('textbox', { name: '岗位', exact: true })).toHaveValue(`${positions[0].code}，${positions[1].code}`)
    await modify.getByRole('button', { name: '取消', exact: true }).click()
    await expect(modify).toBeHidden()
  })
})

test('multiple brand picker: two brands ticked in the product search narrow the list', async ({ page, api }) => {
  const { s, child } = await categories(api)
  const made = await brands(api)
  for (const [i, brand] of made.entries())
    await api.post('/basedata/product', {
      code: `P${s}${i}`,
      name: `商品${s}${i}`,
      skuCode: `SKU${s}${i}`,
      categoryId: child.id,
      brandId: brand.id,
      productType: 1,
      taxRate: 17,
      saleTaxRate: 17,
    })

  const pane = await openScreen(page, '/product/info')
  // The search form's labels end with a colon.
  const input = pane.getByRole('textbox', { name: /^品牌\s*:?$/ })
  await input.click()
  const picker = page.getByRole('dialog', { name: '选择商品品牌' })
  // The three brands share their code but for the last character.
  await picker.getByLabel('编号', { exact: true }).fill(made[0].code.slice(0, -1))
  await picker.getByRole('button', { name: '查询', exact: true }).click()
  await expect(picker.locator('.ant-table-row')).toHaveCount(3)
  for (const b of made.slice(0, 2)) await rowOf(picker, b.code).getByRole('checkbox').check()
  await expect(picker.getByText('已选择 2 项')).toBeVisible()
  await picker.getByRole('button', { name: '确定', exact: true }).click()
  await expect(picker).toBeHidden()
  await expect(input).toHaveValue(`${made[0].code}，${made[1].code}`)

  await pane.getByRole('textbox', { name: /^编号\s*:?$/ }).fill(`P${s}`)
  await pane.getByRole('button', { name: '查询', exact: true }).click()
  await expect(pane.locator('.ant-table-row')).toHaveCount(2)
  await expect(rowOf(pane, `P${s}2`)).toHaveCount(0)
})
