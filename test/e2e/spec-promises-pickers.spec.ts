import { chooseOption, confirmBox, expect, openScreen, paneOf, rowOf, test, toast, uniqueSuffix } from './helpers.js'

/**
 * Picker promises of the specification that held without a test (issue 30, "Tests for what already
 * works"; 000 §2 Pickers), walked in one signed-in page: the customer picker's Enter-to-search and 重置,
 * 新增 inside the supplier picker (the new supplier is listed and chosen at once), and the dictionary-
 * category picker of the 数据字典 form. Pickers are tested through what a clerk sees, whatever renders them.
 */
test('customer picker Enter and 重置, 新增 inside the supplier picker, the dictionary-category picker', async ({ page, api }) => {
  test.setTimeout(90_000)
  const s = uniqueSuffix()
  const customers = [`PK${s}A`, `PK${s}B`]
  for (const code of customers) await api.post('/basedata/customer', { code, name: `选客户${code}`, mnemonicCode: 'XKH', settleType: 1 })
  const category = { code: `PC${s}`, name: `选分类${s}` }
  await api.post('/system/dic/category', category)

  await test.step('customer picker: Enter searches, 重置 empties the search and lists all again, a double-click picks', async () => {
    const list = await openScreen(page, '/sale/order')
    await list.getByRole('button', { name: '新增', exact: true }).click()
    const pane = paneOf(page, '/sale/order/add')
    const input = pane.getByRole('textbox', { name: '客户', exact: true })
    const picker = page.getByRole('dialog', { name: '选择客户' })
    await expect(async () => {
      await input.click()
      await expect(picker).toBeVisible({ timeout: 2_000 })
    }).toPass({ timeout: 15_000 })
    const code = picker.getByRole('textbox', { name: '编号' })
    await code.fill(customers[1])
    await code.press('Enter')
    await expect(picker.locator('.ant-table-row')).toHaveCount(1)
    await expect(rowOf(picker, customers[1])).toHaveCount(1)
    await picker.getByRole('button', { name: /重\s*置/ }).click()
    await expect(code).toHaveValue('')
    await expect.poll(() => picker.locator('.ant-table-row').count()).toBeGreaterThan(1)
    await code.fill(`PK${s}`)
    await code.press('Enter')
    await expect(picker.locator('.ant-table-row')).toHaveCount(2)
    await rowOf(picker, customers[0]).dblclick()
    await expect(picker).toBeHidden()
    await expect(input).toHaveValue(new RegExp(`^${customers[0]}`))
  })

  await test.step('新增 inside the supplier picker: the new supplier is saved, listed and can be chosen', async () => {
    const list = await openScreen(page, '/purchase/order')
    await list.getByRole('button', { name: '新增', exact: true }).click()
    const pane = paneOf(page, '/purchase/order/add')
    const input = pane.getByRole('textbox', { name: '供应商', exact: true })
    const picker = page.getByRole('dialog', { name: '选择供应商' })
    await expect(async () => {
      await input.click()
      await expect(picker).toBeVisible({ timeout: 2_000 })
    }).toPass({ timeout: 15_000 })
    await picker.getByRole('button', { name: /新\s*增/ }).click()
    const form = page.getByRole('dialog', { name: '新增供应商' })
    await form.getByRole('textbox', { name: '编号', exact: true }).fill(`PS${s}`)
    await form.getByRole('textbox', { name: '名称', exact: true }).fill(`选内新增${s}`)
    await chooseOption(page, form, '结账方式', '款到发货')
    await form.getByRole('button', { name: /保\s*存|确\s*定/ }).click()
    await confirmBox(page, '结账方式创建后不允许修改').getByRole('button', { name: '确定', exact: true }).click()
    await expect(toast(page, '新增成功！')).toBeVisible()
    await expect(form).toBeHidden()
    await picker.getByRole('textbox', { name: '编号' }).fill(`PS${s}`)
    await picker.getByRole('textbox', { name: '编号' }).press('Enter')
    await rowOf(picker, `PS${s}`).dblclick()
    await expect(picker).toBeHidden()
    await expect(input).toHaveValue(new RegExp(`^PS${s}`))
  })

  await test.step('数据字典 form: the category is chosen in the dictionary-category picker', async () => {
    const pane = await openScreen(page, '/system/dic')
    await pane.getByRole('button', { name: '新增', exact: true }).click()
    const form = page.getByRole('dialog', { name: /新增数据字典$/ })
    const input = form.getByRole('textbox', { name: '分类', exact: true })
    const picker = page.getByRole('dialog', { name: /^选择/ })
    await expect(async () => {
      await input.click()
      await expect(picker).toBeVisible({ timeout: 2_000 })
    }).toPass({ timeout: 15_000 })
    await expect(picker.getByRole('columnheader', { name: '编号' })).toBeVisible()
    await expect(picker.getByRole('columnheader', { name: '名称' })).toBeVisible()
    await picker.getByRole('textbox', { name: '名称' }).fill(category.name)
    await picker.getByRole('button', { name: /查\s*询/ }).click()
    await expect(picker.locator('.ant-table-row')).toHaveCount(1)
    await rowOf(picker, category.code).dblclick()
    await expect(picker).toBeHidden()
    await expect(input).toHaveValue(new RegExp(category.code))
  })
})
