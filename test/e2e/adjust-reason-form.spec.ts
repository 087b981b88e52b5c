import { expect, fieldErrors, openScreen, rowOf, test, toast, uniqueSuffix } from './helpers.js'

/**
 * The stock adjust reason form (000 §3, §9): 编号 and 名称 required with the spec's messages, the code's
 * pattern message, remarks at most 20 characters, text trimmed before it is stored, and 新增成功！
 * once it saves. Nothing is stored while the form refuses.
 */
test('adjust reason: required fields, code pattern, remarks ≤ 20, trimmed values, 新增成功！', async ({ page, api }) => {
  const s = uniqueSuffix()
  const code = `R${s}`
  const stored = async () => (await api.get<{ datas: { code: string; name: string; description?: string }[] }>('/stock/adjust/reason/query', { code: s })).datas
  const pane = await openScreen(page, '/stock/stock-adjust/reason')
  await pane.getByRole('button', { name: '新增', exact: true }).click()
  const form = page.getByRole('dialog', { name: /^新增/ })
  await expect(form).toBeVisible()
  const confirm = form.getByRole('button', { name: '确定', exact: true })

  await test.step('empty: 请输入编号 and 请输入名称, nothing saved', async () => {
    await confirm.click()
    await expect(fieldErrors(form).filter({ hasText: '请输入编号' })).toBeVisible()
    await expect(fieldErrors(form).filter({ hasText: '请输入名称' })).toBeVisible()
    await expect(form).toBeVisible()
  })

  await test.step('a code of 21 characters and remarks of 21: the spec messages, nothing saved', async () => {
    await form.getByRole('textbox', { name: '编号', exact: true }).fill(`${code}${'X'.repeat(21 - code.length)}`)
    await form.getByRole('textbox', { name: '名称', exact: true }).fill(`损溢${s}`)
    await form.getByRole('textbox', { name: '备注', exact: true }).fill('备'.repeat(21))
    await confirm.click()
    await expect(fieldErrors(form).filter({ hasText: '编号必须由字母、数字、“-_.”组成，长度不能超过20位' })).toBeVisible()
    await expect(fieldErrors(form).filter({ hasText: '备注长度不能超过20个字符' })).toBeVisible()
    await expect(form).toBeVisible()
    expect(await stored()).toEqual([])
  })

  await test.step('valid values with spaces around: 新增成功！, stored trimmed', async () => {
    await form.getByRole('textbox', { name: '编号', exact: true }).fill(`  ${code}  `)
    await form.getByRole('textbox', { name: '名称', exact: true }).fill(`  损溢${s}  `)
    await form.getByRole('textbox', { name: '备注', exact: true }).fill('备'.repeat(20))
    await expect(fieldErrors(form)).toHaveCount(0)
    await confirm.click()
    await expect(toast(page, '新增成功！')).toBeVisible()
    await expect(form).toBeHidden()
    expect(await stored()).toEqual([expect.objectContaining({ code, name: `损溢${s}`, description: '备'.repeat(20) })])
    await pane.getByPlaceholder('请输入编号').first().fill(code)
    await pane.getByRole('button', { name: '查询', exact: true }).click()
    await expect(rowOf(pane, code)).toContainText(`损溢${s}`)
  })
})
