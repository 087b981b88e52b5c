import { expect, openScreen, paneOf, rowOf, test, toast, uniqueSuffix } from './helpers.js'
import { pick, total } from './document-helpers.js'

/**
 * A supplier fee sheet typed by a clerk: lines are 支出项目 chosen in the item picker (应付款), the
 * total follows the amounts exactly, switching to 应收款 offers 收入项目 and starts the lines over;
 * saved, approved from the list, 未结算 until a check sheet takes it.
 */
test('supplier fee sheet: items from the picker its direction chooses, exact total, approve', async ({ page, api }) => {
  test.setTimeout(90_000)
  const s = uniqueSuffix()
  const supplier = { code: `S${s}`, name: `费用供应商${s}` }
  await api.post('/basedata/supplier', { ...supplier, mnemonicCode: 'FY', settleType: 1, manageType: 1 })
  await api.post('/settle/item/out', { code: `O${s}A`, name: `运费${s}` })
  await api.post('/settle/item/out', { code: `O${s}B`, name: `装卸${s}` })
  await api.post('/settle/item/in', { code: `I${s}`, name: `返利${s}` })

  const list = await openScreen(page, '/settle/supplier/fee-sheet')
  await list.getByRole('button', { name: '新增', exact: true }).click()
  await expect(page).toHaveURL(/\/settle\/supplier\/fee-sheet\/add$/)
  const pane = paneOf(page, '/settle/supplier/fee-sheet/add')
  await pick(page, pane.getByRole('textbox', { name: '供应商', exact: true }), supplier.code)

  // 应付款 (the default) offers 支出项目.
  await pane.getByRole('button', { name: '添加项目' }).click()
  const picker = page.getByRole('dialog', { name: '选择支出项目' })
  await rowOf(picker, `O${s}A`).click()
  await rowOf(picker, `O${s}B`).click()
  await picker.getByRole('button', { name: '确定', exact: true }).click()
  await expect(picker).toBeHidden()
  await expect(pane.locator('.document-lines .ant-table-row')).toHaveCount(2)
  await expect(pane.locator('.document-lines')).toContainText(`运费${s}`)
  await expect(pane.locator('.document-lines')).toContainText(`O${s}A`)
  await pane.getByRole('spinbutton', { name: '第1行金额' }).fill('0.10')
  await pane.getByRole('spinbutton', { name: '第2行金额' }).fill('0.20')
  await expect(total(pane, 'totalAmount')).toHaveText('0.30')

  // 应收款 takes 收入项目: the lines start over.
  // The chosen value's label lies over antd's search input: click through it.
  await pane.getByRole('combobox', { name: '收支方向', exact: true }).click({ force: true })
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '应收款' }).click()
  await expect(pane.locator('.document-lines .ant-table-row')).toHaveCount(0)
  await pane.getByRole('button', { name: '添加项目' }).click()
  const inPicker = page.getByRole('dialog', { name: '选择收入项目' })
  await rowOf(inPicker, `I${s}`).click()
  await inPicker.getByRole('button', { name: '确定', exact: true }).click()
  await pane.getByRole('spinbutton', { name: '第1行金额' }).fill('12.34')
  await expect(total(pane, 'totalAmount')).toHaveText('12.34')
  await pane.getByRole('button', { name: '保存', exact: true }).click()
  await expect(toast(page, '新增成功！')).toBeVisible()

  const row = rowOf(list, supplier.name)
  await expect(row).toContainText('待审核')
  await expect(row).toContainText('12.34')
  await expect(row).toContainText('未结算')
  await row.getByRole('button', { name: '审核', exact: true }).click()
  await page.locator('.shell-pane:visible').getByRole('button', { name: '审核通过', exact: true }).click()
  await expect(toast(page, '审核通过！')).toBeVisible()
  await expect(rowOf(list, supplier.name)).toContainText('审核通过')
})
