import { chooseOption, confirmBox, expect, fieldErrors, openMenu, rowOf, test, toast, uniqueSuffix } from './helpers.js'

/**
 * The supplier screen, built only from schemas/entities/supplier.json, on the real server: every rule
 * of 000 §5 "Supplier form" shows its message, the settle type asks before saving, and the server's
 * uniqueness check comes back to the form.
 */

test('supplier add form: rules, mnemonic code, settle-type confirm, save and duplicate code', async ({ page }) => {
  test.setTimeout(60_000)
  const code = `S${uniqueSuffix()}`

  const pane = await openMenu(page, '基础信息管理', '供应商信息', '/base-data/supplier')
  await pane.getByRole('button', { name: '新增', exact: true }).click()
  const form = page.getByRole('dialog', { name: '新增供应商' })
  await expect(form).toBeVisible()

  await test.step('an empty form shows the first failing message and marks every required item', async () => {
    await form.getByRole('button', { name: '确定', exact: true }).click()
    await expect(toast(page, '请输入编号')).toBeVisible()
    // 经营方式 has its default (经销), so it is not among them.
    await expect(form.locator('.ant-select-selection-item', { hasText: '经销' })).toBeVisible()
    for (const text of ['请输入编号', '请输入名称', '请输入助记码', '请选择结账方式'])
      await expect(fieldErrors(form).filter({ hasText: text })).toBeVisible()
    await expect(fieldErrors(form).filter({ hasText: '请选择经营方式' })).toHaveCount(0)
  })

  const codeInput = form.getByRole('textbox', { name: '编号', exact: true })
  await test.step('a code with a space breaks the code pattern', async () => {
    await codeInput.fill('a b')
    await codeInput.blur()
    await expect(fieldErrors(form).filter({ hasText: '编号必须由字母、数字、“-_.”组成，长度不能超过20位' })).toBeVisible()
    await codeInput.fill(code)
    await expect(fieldErrors(form).filter({ hasText: /编号/ })).toHaveCount(0)
  })

  await test.step('the mnemonic code follows the name as upper-case initials', async () => {
    await form.getByRole('textbox', { name: '名称', exact: true }).fill('杭州供应商')
    await expect(form.getByRole('textbox', { name: '助记码', exact: true })).toHaveValue('HZGYS')
    await expect(fieldErrors(form).filter({ hasText: '请输入助记码' })).toHaveCount(0)
  })

  await test.step('a bad e-mail address', async () => {
    const email = form.getByRole('textbox', { name: '电子邮箱', exact: true })
    await email.fill('not-mail')
    await email.blur()
    await expect(fieldErrors(form).filter({ hasText: '邮箱地址格式不正确' })).toBeVisible()
    await email.fill('sales@hz.example.com')
    await expect(fieldErrors(form).filter({ hasText: '邮箱地址格式不正确' })).toHaveCount(0)
  })

  await test.step('the delivery cycle is a whole number above zero', async () => {
    const cycle = form.getByRole('spinbutton', { name: '送货周期（天）', exact: true })
    await cycle.fill('1.5')
    await expect(fieldErrors(form).filter({ hasText: '送货周期（天）必须为整数' })).toBeVisible()
    await cycle.fill('0')
    await expect(fieldErrors(form).filter({ hasText: '送货周期（天）必须大于0' })).toBeVisible()
    await expect(fieldErrors(form).filter({ hasText: '送货周期（天）必须为整数' })).toHaveCount(0)
    await cycle.fill('7')
    await expect(fieldErrors(form).filter({ hasText: /送货周期/ })).toHaveCount(0)
  })

  await test.step('without a settle type the form still refuses', async () => {
    await form.getByRole('button', { name: '确定', exact: true }).click()
    await expect(toast(page, '请选择结账方式')).toBeVisible()
    await expect(fieldErrors(form)).toHaveText(['请选择结账方式'])
    await expect(confirmBox(page, '结账方式')).toHaveCount(0)
  })

  await test.step('a complete form asks about the settle type, then saves', async () => {
    await chooseOption(page, form, '结账方式', '货到付款')
    await expect(fieldErrors(form)).toHaveCount(0)
    await form.getByRole('button', { name: '确定', exact: true }).click()
    const confirm = confirmBox(page, '结账方式创建后不允许修改，是否确认保存？')
    await expect(confirm).toBeVisible()
    await confirm.getByRole('button', { name: '确定', exact: true }).click()
    await expect(toast(page, '新增成功！')).toBeVisible()
    await expect(form).toBeHidden()
    const row = rowOf(pane, code)
    await expect(row).toHaveCount(1)
    for (const text of ['杭州供应商', 'HZGYS', '经销', '货到付款', '启用']) await expect(row).toContainText(text)
  })

  await test.step('the same code again is refused by the server and marked on the item', async () => {
    await pane.getByRole('button', { name: '新增', exact: true }).click()
    const again = page.getByRole('dialog', { name: '新增供应商' })
    await again.getByRole('textbox', { name: '编号', exact: true }).fill(code)
    await again.getByRole('textbox', { name: '名称', exact: true }).fill('重复供应商')
    await chooseOption(page, again, '结账方式', '款到发货')
    await again.getByRole('button', { name: '确定', exact: true }).click()
    await confirmBox(page, '结账方式创建后不允许修改').getByRole('button', { name: '确定', exact: true }).click()
    await expect(toast(page, '编号重复，请重新输入')).toBeVisible()
    await expect(fieldErrors(again).filter({ hasText: '编号重复，请重新输入' })).toBeVisible()
    await expect(again).toBeVisible()
    await again.getByRole('button', { name: '取消', exact: true }).click()
    await expect(again).toBeHidden()
    await expect(rowOf(pane, code)).toHaveCount(1)
    await expect(rowOf(pane, '重复供应商')).toHaveCount(0)
  })
})
