import { browserToday, expect, openScreen, rowOf, test, toast, uniqueSuffix, syncEntity } from './helpers.js'
import type { Page } from '@playwright/test'

/**
 * The low-code designers as an admin uses them: a menu pointed at a custom list by picking it (and
 * shown in the shell without a reload), a form built in 表单生成器 and opened from a menu, and the
 * Monaco-based custom form/page dialogs free of page errors.
 */

/** Searches an open picker dialog by name, chooses the row showing `shown` and confirms. */
async function pickInDialog(page: Page, title: string, text: string, shown = text): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title })
  await expect(dialog).toBeVisible()
  // Long trees and lists are virtual: search by name first.
  await dialog.getByPlaceholder('请输入名称').fill(text)
  await dialog.getByRole('button', { name: '查询', exact: true }).click()
  const row = dialog.locator('.ant-table-row, .ant-tree-treenode').filter({ hasText: shown }).first()
  await row.click()
  await dialog.getByRole('button', { name: '确定', exact: true }).click()
  await expect(dialog).toBeHidden()
}

test('a menu is pointed at a custom list by picking it, with an icon from the picker, and shows without a reload', async ({ page, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  const names = { catalog: `设计器${s}`, list: `类目清单${s}`, menu: `类目菜单${s}`, category: `设计类目${s}` }
  await api.post('/basedata/product/category', { code: `DC${s}`, name: names.category, available: true })
  const entity = await syncEntity(api, 'base_data_product_category', '商品类目')
  const columns = await api.get<{ id: string; columnName: string }[]>('/gen/data/entity/columns', { id: entity })
  const objId = await api.post<string>('/gen/data/obj', { name: `类目对象${s}`, mainTableId: entity, mainTableAlias: 'c', joins: [] })
  expect(columns.length).toBeGreaterThan(0)
  await api.post('/gen/custom/list', {
    name: names.list,
    dataObjId: objId,
    listType: 0,
    hasPage: true,
    fields: [{ relaId: 'c_code' }, { relaId: 'c_name', name: '类目名称' }],
    queryParams: [{ relaId: 'c_name', name: '类目名称', queryType: 10 }],
    toolbars: [],
    handleColumns: [],
  })
  await api.post('/system/menu', { code: `DS${s}`, title: names.catalog, name: `ds${s}`, display: 0, path: `/ds${s.toLowerCase()}`, icon: 'AppstoreOutlined', available: true })

  const pane = await openScreen(page, '/system/menu')
  await pane.getByRole('button', { name: '新增', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: '新增菜单' })
  await dialog.getByRole('textbox', { name: '编号', exact: true }).fill(`DS${s}1`)
  await dialog.getByRole('textbox', { name: '名称', exact: true }).fill(names.menu)
  await dialog.getByRole('textbox', { name: '上级菜单', exact: true }).click()
  // the menu tree labels its nodes by code and route name
  await pickInDialog(page, '选择菜单', names.catalog, `DS${s} ds${s}`)
  await dialog.getByRole('textbox', { name: '路由路径', exact: true }).fill(`/ds${s.toLowerCase()}/list`)
  // the select shows 普通 over its input: open it by its frame
  await dialog.locator('.ant-select', { has: page.getByRole('combobox', { name: '组件类型', exact: true }) }).click()
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '自定义列表' }).click()
  // 组件 is now the custom list picker, showing names.
  await dialog.getByRole('textbox', { name: '组件', exact: true }).click()
  await pickInDialog(page, '选择自定义列表', names.list)
  await expect(dialog.getByRole('textbox', { name: '组件', exact: true })).toHaveValue(new RegExp(names.list))
  // 图标: the icon picker searches the built-in icons.
  const icon = dialog.getByRole('combobox', { name: '图标', exact: true })
  await icon.click()
  await icon.fill('shoppingcart')
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'ShoppingCartOutlined' }).click()
  await dialog.getByRole('button', { name: '确定', exact: true }).click()
  await expect(toast(page, '新增成功！')).toBeVisible()

  // No reload: the shell's menus already have it (the top menu may fold the catalog under 更多, so it is
  // reached through the menu search, which reads the same tree), and it opens the list.
  const search = page.getByPlaceholder('搜索菜单')
  await search.fill(names.menu)
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: `${names.catalog} / ${names.menu}` }).click()
  await expect(page).toHaveURL(new RegExp(`/ds${s.toLowerCase()}/list$`))
  const list = page.locator(`.shell-pane[data-page="/ds${s.toLowerCase()}/list"]`)
  await list.getByRole('textbox', { name: '类目名称', exact: true }).fill(names.category)
  await list.getByRole('button', { name: '查询', exact: true }).click()
  await expect(rowOf(list, names.category)).toHaveCount(1)
})

test('a form is built in 表单生成器 and opened from a menu', async ({ page, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  const formName = `设计表单${s}`
  const pane = await openScreen(page, '/development/fm-designer')
  await pane.getByRole('button', { name: '新建表单', exact: false }).click()
  const create = page.getByRole('dialog', { name: '新建自定义表单' })
  await create.getByRole('textbox', { name: '表单名称' }).fill(formName)
  await create.getByRole('button', { name: /确\s*定/ }).click()
  await expect(pane.getByRole('combobox', { name: '选择自定义表单' })).toBeVisible()
  await expect(pane.locator('.ant-select-selection-item', { hasText: formName })).toBeVisible()

  // Drag 单行文本 onto the grid, then click 下拉选择 to add it as well.
  const canvas = pane.getByRole('list', { name: '表单画布' })
  const source = pane.getByRole('listitem', { name: '单行文本' })
  // the form's (empty) design has loaded and the layout has settled
  await expect(pane.getByText('从左侧拖入组件')).toBeVisible()
  await expect(canvas).toContainText('把左侧的组件拖到这里')
  await source.hover()
  const from = (await source.boundingBox())!
  const to = (await canvas.boundingBox())!
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
  await page.mouse.down()
  await page.mouse.move(from.x + 30, from.y + 10, { steps: 5 })
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 })
  await page.mouse.up()
  await expect(canvas.getByRole('listitem')).toHaveCount(1)
  const props = pane.getByRole('region', { name: '字段属性' })
  await props.getByRole('textbox', { name: '标题' }).fill('客户名称')
  const name = props.getByRole('textbox', { name: '字段名' })
  await name.fill('customerName')
  await name.blur()
  await props.getByRole('switch', { name: '必填' }).click()
  await props.getByRole('textbox', { name: '校验正则' }).fill('^[^0-9]+$')
  await props.getByRole('textbox', { name: '校验提示' }).fill('客户名称不能含数字')
  await pane.getByRole('listitem', { name: '下拉选择' }).click()
  await expect(canvas.getByRole('listitem')).toHaveCount(2)
  await props.getByRole('textbox', { name: '标题' }).fill('客户等级')
  await props.getByRole('textbox', { name: '选项1显示值' }).fill('普通')
  await props.getByRole('textbox', { name: '选项2显示值' }).fill('重要')
  // The live preview renders the schema being built.
  const preview = pane.getByRole('region', { name: '表单预览' })
  await expect(preview.getByRole('textbox', { name: '客户名称' })).toBeVisible()
  await expect(preview.getByRole('combobox', { name: '客户等级' })).toBeVisible()
  await pane.getByRole('button', { name: '保存', exact: true }).click()
  await expect(toast(page, '保存成功')).toBeVisible()

  // The saved formConfig is the designer's schema; a menu opens the form.
  const forms = await api.get<{ datas: { id: string; name: string }[] }>('/gen/custom/form/query', { name: formName })
  const formId = forms.datas.find((f) => f.name === formName)!.id
  const config = await api.get<{ formConfig: string }>('/gen/api/custom/form/config', { id: formId })
  const schema = JSON.parse(config.formConfig) as { properties: { grid: { properties: Record<string, { title: string; required?: boolean; 'x-decorator-props': { gridSpan: number } }> } } }
  expect(schema.properties.grid.properties.customerName).toMatchObject({ title: '客户名称', required: true, 'x-decorator-props': { gridSpan: 12 } })
  await api.post('/system/menu', { code: `DF${s}`, title: `设计菜单${s}`, name: `df${s}`, display: 0, path: `/df${s.toLowerCase()}`, available: true })
  const menus = await api.get<{ id: string; title: string }[]>('/system/menu/query', { title: `设计菜单${s}` })
  const parentId = menus.find((m) => m.title === `设计菜单${s}`)!.id
  await api.post('/system/menu', { code: `DF${s}1`, title: `设计表单页${s}`, name: `dfForm${s}`, parentId, display: 1, componentType: 2, component: formId, path: `/df${s.toLowerCase()}/form`, available: true })
  await page.goto(`/df${s.toLowerCase()}/form`)
  const formPane = page.locator(`.shell-pane[data-page="/df${s.toLowerCase()}/form"]`)
  const customer = formPane.getByRole('textbox', { name: '客户名称' })
  await expect(customer).toBeVisible()
  await customer.fill('客户1')
  await customer.blur()
  await expect(formPane.getByText('客户名称不能含数字')).toBeVisible()
  await expect(formPane.getByRole('combobox', { name: '客户等级' })).toBeVisible()
})

test('表单生成器 names fields from their labels and gives a date field date properties', async ({ page, api }) => {
  test.setTimeout(120_000)
  const formName = `命名表单${uniqueSuffix()}`
  const pane = await openScreen(page, '/development/fm-designer')
  await pane.getByRole('button', { name: '新建表单', exact: false }).click()
  const create = page.getByRole('dialog', { name: '新建自定义表单' })
  await create.getByRole('textbox', { name: '表单名称' }).fill(formName)
  await create.getByRole('button', { name: /确\s*定/ }).click()
  await expect(pane.locator('.ant-select-selection-item', { hasText: formName })).toBeVisible()
  const canvas = pane.getByRole('list', { name: '表单画布' })
  const props = pane.getByRole('region', { name: '字段属性' })
  const title = props.getByRole('textbox', { name: '标题' })
  const name = props.getByRole('textbox', { name: '字段名' })

  // A new field is named from its label; the name follows the title while the admin has not typed one.
  await pane.getByRole('listitem', { name: '单行文本' }).click()
  await expect(name).toHaveValue('danHangWenBen')
  await title.fill('客户名称')
  await expect(name).toHaveValue('keHuMingCheng')
  await expect(title).toBeFocused()
  await pane.getByRole('listitem', { name: '单行文本' }).click()
  await title.fill('客户名称')
  await expect(name).toHaveValue('keHuMingCheng2')
  await name.fill('contact')
  await name.blur()
  await title.fill('联系人')
  await expect(name).toHaveValue('contact')
  await expect(canvas.getByRole('listitem', { name: '联系人（contact）' })).toBeVisible()

  // A date shows date properties, not the text ones.
  await pane.getByRole('listitem', { name: '日期', exact: true }).click()
  await expect(name).toHaveValue('riQi')
  await title.fill('下次跟进时间')
  await expect(name).toHaveValue('xiaCiGenJinShiJian')
  for (const text of ['校验正则', '校验提示', '最少字符', '最多字符']) await expect(props.getByRole('textbox', { name: text })).toHaveCount(0)
  await expect(props.getByRole('combobox', { name: '日期格式' })).toBeVisible()
  await props.getByRole('switch', { name: '包含时间' }).click()
  // the select shows its value over its input: open it by its frame
  await props.locator('.ant-select', { has: page.getByRole('combobox', { name: '日期格式', exact: true }) }).click()
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^YYYY-MM-DD HH:mm \(/ }).click()
  await props.getByRole('switch', { name: '默认今天' }).click()
  const earliest = props.getByRole('textbox', { name: '最早日期' })
  await earliest.click()
  await earliest.fill('2020-01-01')
  await earliest.press('Enter')
  await expect(earliest).toHaveValue('2020-01-01')
  // a text field still offers its own rules
  await canvas.getByRole('listitem', { name: '客户名称（keHuMingCheng）' }).click()
  await expect(props.getByRole('textbox', { name: '校验正则' })).toBeVisible()
  await expect(props.getByRole('combobox', { name: '日期格式' })).toHaveCount(0)

  // The live preview starts the date-time at today, in the chosen format.
  const today = await browserToday(page)
  const preview = pane.getByRole('region', { name: '表单预览' })
  await expect(preview.locator('.ant-picker input').first()).toHaveValue(new RegExp(`^${today} \\d{2}:\\d{2}$`))
  await pane.getByRole('button', { name: '保存', exact: true }).click()
  await expect(toast(page, '保存成功')).toBeVisible()

  const forms = await api.get<{ datas: { id: string; name: string }[] }>('/gen/custom/form/query', { name: formName })
  const formId = forms.datas.find((f) => f.name === formName)!.id
  const config = await api.get<{ formConfig: string }>('/gen/api/custom/form/config', { id: formId })
  const fields = (JSON.parse(config.formConfig) as { properties: { grid: { properties: Record<string, { title: string; 'x-component-props': Record<string, unknown> }> } } }).properties.grid.properties
  expect(Object.keys(fields)).toEqual(['keHuMingCheng', 'contact', 'xiaCiGenJinShiJian'])
  expect(fields.xiaCiGenJinShiJian['x-component-props']).toMatchObject({ format: 'YYYY-MM-DD HH:mm', showTime: true, defaultToday: true, minDate: '2020-01-01' })
})

test('the custom form and custom page dialogs open their editors without page errors', async ({ page }) => {
  test.setTimeout(120_000)
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  for (const [path, title, editor] of [
    ['/development/custom/form', '新增自定义表单', '.form-config-editor'],
    ['/development/custom/page', '新增自定义页面', '.lowcode-monaco'],
  ] as const) {
    const pane = await openScreen(page, path)
    await pane.getByRole('button', { name: '新增', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: title })
    await expect(dialog.locator(`${editor} .monaco-editor`).first()).toBeVisible({ timeout: 20_000 })
    await dialog.locator('.monaco-editor').first().click()
    await page.keyboard.type('return 1')
    await page.waitForTimeout(1500)
    await dialog.getByRole('button', { name: '取消', exact: true }).click()
  }
  expect(errors).toEqual([])
})
