import { expect, openMenu, rowOf, test, toast } from './helpers.js'

/**
 * 系统管理 › 编号规则: an admin changes the member rule (prefix M, no date, five digits) and the next
 * 新增会员 form proposes the following code of that rule; the clerk may still type another.
 */
test('a numbering rule changed in 编号规则 gives the next member form its code', async ({ page, api }) => {
  test.setTimeout(90_000)
  const rules = await openMenu(page, '系统管理', '编号规则', '/system/code-rule')
  await expect(rowOf(rules, '客户 · 编号')).toContainText('KH')
  const row = rowOf(rules, '会员 · 编号')
  await row.getByRole('button', { name: '修改', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: '修改编号规则' })
  await dialog.getByRole('textbox', { name: '前缀', exact: true }).fill('M')
  // The select shows its value over the input: a user clicks the box, not the hidden input.
  await dialog.locator('.ant-select').filter({ has: page.getByRole('combobox', { name: '日期部分', exact: true }) }).click()
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '无' }).first().click()
  await dialog.getByRole('spinbutton', { name: '流水号位数', exact: true }).fill('5')
  await dialog.getByRole('button', { name: '确定', exact: true }).click()
  await expect(toast(page, '修改成功！')).toBeVisible()
  await expect(row).toContainText('无')

  const members = await openMenu(page, '基础信息管理', '会员信息', '/base-data/member')
  await members.getByRole('button', { name: '新增', exact: true }).click()
  const form = page.getByRole('dialog', { name: '新增会员' })
  const code = form.getByRole('textbox', { name: '编号', exact: true })
  await expect(code).toHaveValue(/^M\d{5}$/)
  // The proposal is the rule's next number: the counter shows it as used.
  const used = Number((await code.inputValue()).slice(1))
  const listed = await api.get<{ datas: { name: string; lastValue: number }[] }>('/system/code-rule/query', { pageSize: 50 })
  expect(listed.datas.find((r) => r.name === '会员 · 编号')?.lastValue).toBeGreaterThanOrEqual(used)
  await form.getByRole('button', { name: '取消', exact: true }).click()
})
