import type { Locator, Page } from '@playwright/test'
import { expect, openMenu, openScreen, rowOf, signIn, test, toast, uniqueSuffix, syncEntity } from './helpers.js'

/**
 * The low-code layer end to end (issue "Low-code layer", done means): an administrator builds a custom
 * list over products joined to categories in the browser (fields, a formatter script in Monaco, query
 * params, a custom-form row button), edits the custom form's Formily JSON in Monaco with its live
 * preview, puts the list on a menu of component type 自定义列表; a staff user granted that menu (and the
 * category key the form's handler writes with) opens it, filters, exports, and submits the form.
 */

/** Picks the option of an antd Select (found by its accessible name inside `scope`), typing to search when it can. */
async function pick(page: Page, scope: Locator, label: string, option: string, search?: string): Promise<void> {
  const box = scope.getByRole('combobox', { name: label, exact: true })
  await box.click()
  // Long option lists are virtual: only what the search leaves is rendered.
  if (search) await box.fill(search)
  const dropdown = page.locator('.ant-select-dropdown:visible')
  await dropdown.locator('.ant-select-item-option', { hasText: option }).first().click()
  await expect(dropdown).toHaveCount(0)
}

/** Replaces the text of the Monaco editor inside `scope`. */
async function typeInMonaco(page: Page, scope: Locator, text: string): Promise<void> {
  const editor = scope.locator('.monaco-editor').first()
  await expect(editor).toBeVisible({ timeout: 15_000 })
  await editor.click()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Delete')
  await page.keyboard.insertText(text)
}

test('custom list over products and categories: build, menu, staff filter, export, form submit', async ({ page, api, browser, baseURL }) => {
  test.setTimeout(150_000)
  const s = uniqueSuffix()
  const names = { list: `商品清单${s}`, form: `类目备注${s}`, drinks: `饮料${s}`, snacks: `零食${s}`, catalog: `低代码${s}` }
  const staff = { username: `lc${s.toLowerCase()}`, password: 'secret123' }
  let snacksId = ''
  let formId = ''

  await test.step('test data through the API: categories, products, data entities, a data object and a custom form', async () => {
    const drinks = await api.post<string>('/basedata/product/category', { code: `LD${s}`, name: names.drinks, available: true })
    snacksId = await api.post<string>('/basedata/product/category', { code: `LS${s}`, name: names.snacks, available: true })
    const brandId = await api.post<string>('/basedata/product/brand', { code: `LB${s}`, name: `品牌${s}`, available: true })
    for (const [code, name, categoryId] of [
      [`L${s}1`, `可乐${s}`, drinks],
      [`L${s}2`, `雪碧${s}`, drinks],
      [`L${s}3`, `薯片${s}`, snacksId],
    ])
      await api.post('/basedata/product', { code, name, skuCode: `S${code}`, categoryId, brandId, productType: 1, taxRate: 17, saleTaxRate: 17, retailPrice: '3.50', available: true })
    const productEntity = await syncEntity(api, 'base_data_product', '商品')
    const categoryEntity = await syncEntity(api, 'base_data_product_category', '商品类目')
    const columns = async (id: string) => new Map((await api.get<{ id: string; columnName: string }[]>('/gen/data/entity/columns', { id })).map((c) => [c.columnName, c.id]))
    const pc = await columns(productEntity)
    const cc = await columns(categoryEntity)
    await api.post('/gen/data/obj', {
      name: `商品与类目${s}`,
      mainTableId: productEntity,
      mainTableAlias: 'p',
      joins: [{ subTableId: categoryEntity, subTableAlias: 'c', relaType: 0, relaMode: 0, mainTableDetailIds: [pc.get('category_id')], subTableDetailIds: [cc.get('id')] }],
    })
    formId = await api.post<string>('/gen/custom/form', {
      name: names.form,
      formConfig: JSON.stringify({ type: 'object', properties: { description: { type: 'string', title: '备注', 'x-decorator': 'FormItem', 'x-component': 'Input' } } }),
      isDialog: true,
      dialogTittle: '修改类目备注',
      requireQuery: true,
      queryBean: 'updateProductCategoryRemark',
      handleBean: 'updateProductCategoryRemark',
    })
  })

  await test.step('the custom form: its Formily JSON in Monaco, checked, with the live preview', async () => {
    const pane = await openScreen(page, '/development/custom/form')
    await rowOf(pane, names.form).getByRole('button', { name: '修改', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: '修改自定义表单' })
    const preview = dialog.getByRole('region', { name: '表单预览' })
    await expect(preview.getByText('备注', { exact: true })).toBeVisible({ timeout: 15_000 })
    // A component outside the whitelist is refused in the preview.
    await typeInMonaco(page, dialog.locator('.form-config-editor'), '{"type":"object","properties":{"x":{"type":"string","x-component":"iframe"}}}')
    await expect(preview.getByText('不支持的组件 iframe')).toBeVisible()
    const schema = {
      type: 'object',
      properties: {
        description: { type: 'string', title: '类目备注', 'x-decorator': 'FormItem', 'x-component': 'Input', 'x-component-props': { 'aria-label': '类目备注' } },
      },
    }
    await typeInMonaco(page, dialog.locator('.form-config-editor'), JSON.stringify(schema))
    await expect(preview.getByRole('textbox', { name: '类目备注' })).toBeVisible()
    await dialog.getByRole('button', { name: '确定', exact: true }).click()
    await expect(toast(page, '修改成功！')).toBeVisible()
  })

  await test.step('the custom list, built in the browser: data object, fields with a formatter, query params, a form button', async () => {
    const pane = await openScreen(page, '/development/custom/list')
    await pane.getByRole('button', { name: '新增', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: '新增自定义列表' })
    await dialog.getByRole('textbox', { name: '名称', exact: true }).fill(names.list)
    await dialog.getByRole('textbox', { name: '数据对象', exact: true }).click()
    const picker = page.getByRole('dialog', { name: '选择数据对象' })
    await rowOf(picker, `商品与类目${s}`).dblclick()
    await expect(picker).toBeHidden()
    await dialog.getByRole('textbox', { name: 'ID字段', exact: true }).fill('p_id')
    await dialog.getByRole('switch', { name: '是否允许导出' }).click()

    const fields = dialog.getByRole('group', { name: '列表字段' })
    for (const column of ['编号（p.code）', '名称（p.name）', '名称（c.name）']) {
      await fields.getByRole('button', { name: '添加字段' }).click()
      await pick(page, fields.locator('.ant-table-row').last(), '字段', column, column.slice(column.indexOf('（') + 1, -1))
    }
    await fields.locator('.ant-table-row').nth(2).getByRole('textbox', { name: '显示名称' }).fill('类目')
    await fields.locator('.ant-table-row').nth(1).getByRole('button', { name: '设置脚本' }).click()
    const script = page.getByRole('dialog', { name: '格式化脚本（参数 cellValue, row）' })
    await typeInMonaco(page, script, "return cellValue + '【' + row.c_name + '】'")
    await script.getByRole('button', { name: '确定', exact: true }).click()
    await expect(script).toBeHidden()

    const params = dialog.getByRole('group', { name: '查询条件' })
    for (const column of ['名称（p.name）', '名称（c.name）']) {
      await params.getByRole('button', { name: '添加查询条件' }).click()
      await pick(page, params.locator('.ant-table-row').last(), '查询字段', column, column.slice(column.indexOf('（') + 1, -1))
    }
    await params.locator('.ant-table-row').nth(1).getByRole('textbox', { name: '查询名称' }).fill('类目')

    const buttons = dialog.getByRole('group', { name: '操作列' })
    await buttons.getByRole('button', { name: '添加按钮' }).click()
    const button = buttons.locator('.ant-table-row').last()
    await button.getByRole('textbox', { name: '按钮名称' }).fill('修改备注')
    await button.getByRole('textbox', { name: '按钮配置' }).fill(formId)
    await button.getByRole('button', { name: '设置脚本' }).click()
    const paramScript = page.getByRole('dialog', { name: '请求参数脚本' })
    await typeInMonaco(page, paramScript, 'return { id: row.c_id }')
    await paramScript.getByRole('button', { name: '确定', exact: true }).click()

    await dialog.getByRole('button', { name: '确定', exact: true }).click()
    await expect(toast(page, '新增成功！')).toBeVisible()
  })

  await test.step('a menu of component type 自定义列表, a role granted that menu and the category modify key its form handler needs, a staff user with the role', async () => {
    const lists = await api.get<{ datas: { id: string; name: string }[] }>('/gen/custom/list/query', { name: names.list })
    const listId = lists.datas.find((l) => l.name === names.list)!.id
    const catalogId = await api.post<string>('/system/menu', { code: `LC${s}`, title: names.catalog, name: `lc${s}`, display: 0, path: `/lc${s.toLowerCase()}`, icon: 'AppstoreOutlined', available: true })
    const menuId = await api.post<string>('/system/menu', {
      code: `LC${s}1`,
      title: names.list,
      name: `lcList${s}`,
      parentId: catalogId,
      display: 1,
      componentType: 1,
      component: listId,
      path: `/lc${s.toLowerCase()}/list`,
      available: true,
    })
    const roleId = await api.post<string>('/system/role', { code: `LR${s}`, name: `低代码角色${s}`, available: true })
    const userId = await api.post<string>('/system/user', { code: `LU${s}`, name: `低代码员工${s}`, ...staff, gender: 0, available: true })
    // The row button's form handler changes a product category: the role needs that key as well.
    const menus = await api.get<{ id: string; permission: string | null }[]>('/system/role/menu/menus', { roleId })
    const modifyCategory = menus.find((m) => m.permission === 'base-data:product:category:modify')!.id
    await api.post('/system/role/menu/setting', { roleIds: [roleId], menuIds: [catalogId, menuId, modifyCategory] })
    await api.post('/system/user/role/setting', { userIds: [userId], roleIds: [roleId] })
  })

  const context = await browser.newContext({ baseURL, locale: 'zh-CN', storageState: { cookies: [], origins: [] }, acceptDownloads: true })
  try {
    const staffPage = await context.newPage()
    await signIn(staffPage, staff.username, staff.password)
    const list = await openMenu(staffPage, names.catalog, names.list, `/lc${s.toLowerCase()}/list`)

    await test.step('the staff user sees the list with formatted cells from the sandbox', async () => {
      // Other tests add products too: narrow to this test's drinks before counting rows.
      await expect(list.locator('.ant-table-row').first()).toBeVisible()
      await list.getByRole('textbox', { name: '类目', exact: true }).fill(names.drinks)
      await list.getByRole('button', { name: '查询', exact: true }).click()
      await expect(rowOf(list, `可乐${s}【${names.drinks}】`)).toHaveCount(1)
      await expect(rowOf(list, `雪碧${s}【${names.drinks}】`)).toHaveCount(1)
      await expect(list.locator('.ant-table-row')).toHaveCount(2)
    })

    await test.step('filters by category and exports the filtered list', async () => {
      await list.getByRole('textbox', { name: '类目', exact: true }).fill(names.snacks)
      await list.getByRole('button', { name: '查询', exact: true }).click()
      await expect(list.locator('.ant-table-row')).toHaveCount(1)
      await expect(rowOf(list, `薯片${s}【${names.snacks}】`)).toHaveCount(1)
      const download = staffPage.waitForEvent('download')
      await list.getByRole('button', { name: '导出', exact: true }).click()
      expect((await download).suggestedFilename()).toMatch(/\.xlsx$/)
    })

    await test.step('the row button opens the custom form with the row as request params and submits through its handler', async () => {
      await rowOf(list, `薯片${s}`).getByRole('button', { name: '修改备注', exact: true }).click()
      const dialog = staffPage.getByRole('dialog', { name: '修改类目备注' })
      const remark = dialog.getByRole('textbox', { name: '类目备注' })
      await expect(remark).toBeVisible()
      await remark.fill(`新备注${s}`)
      await dialog.getByRole('button', { name: '提交', exact: true }).click()
      await expect(toast(staffPage, '提交成功')).toBeVisible()
      await expect(dialog).toBeHidden()
      const category = await api.get<{ description: string }>('/basedata/product/category', { id: snacksId })
      expect(category.description).toBe(`新备注${s}`)
    })
  } finally {
    await context.close()
  }
})
