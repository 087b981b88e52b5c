import { chooseOption, confirmBox, expect, openPicker, rowOf, searchPicker, test, toast } from './helpers.js'
import { approveFromList, codeOf, docMasterData, fillDate, modifyFromList, openAdd, save } from './document-helpers.js'

/**
 * Settlement pages with no browser test until issue 30 ("Tests for what already works"): the supplier
 * pre-payment sheet added (item picker), modified and approved, the customer check sheet added from its
 * candidates and approved; on the way the party pickers' promises (000 §2): the customer picker's
 * Enter-to-search and 重置, 新增 inside the supplier picker. One signed-in walk; goods and a sale
 * through the API.
 */

test('settlement pages (supplier pre-sheet add, modify, approve; customer check sheet add, approve); customer picker Enter and 重置; 新增 inside the supplier picker', async ({ page, api }) => {
  test.setTimeout(120_000)
  const f = await docMasterData(api)
  const s = f.s
  await api.post('/settle/item/out', { code: `SO${s}`, name: `支出项${s}` })
  const others = [`X${s}1`, `X${s}2`]
  for (const code of others) await api.post('/basedata/customer', { code, name: `其他客户${code}`, mnemonicCode: 'QT', settleType: 1 })

  await test.step('供应商预付款 added with a supplier made by 新增 inside the supplier picker, modified, approved', async () => {
    const path = '/settle/supplier/pre-sheet'
    const key = `预付${s}`
    const { list, pane } = await openAdd(page, path)
    const party = pane.getByRole('textbox', { name: '供应商', exact: true })
    const picker = await openPicker(page, party, '选择供应商')
    await picker.getByRole('button', { name: /新\s*增/ }).click()
    const form = page.getByRole('dialog', { name: '新增供应商' })
    await form.getByRole('textbox', { name: '编号', exact: true }).fill(`PS${s}`)
    await form.getByRole('textbox', { name: '名称', exact: true }).fill(`选内新增${s}`)
    await chooseOption(page, form, '结账方式', '款到发货')
    await form.getByRole('button', { name: /保\s*存|确\s*定/ }).click()
    await confirmBox(page, '结账方式创建后不允许修改').getByRole('button', { name: '确定', exact: true }).click()
    await expect(toast(page, '新增成功！')).toBeVisible()
    await expect(form).toBeHidden()
    await searchPicker(picker, `PS${s}`)
    await rowOf(picker, `PS${s}`).dblclick()
    await expect(picker).toBeHidden()
    await expect(party).toHaveValue(new RegExp(`^PS${s}`))

    await pane.getByRole('button', { name: '添加项目' }).click()
    const items = page.getByRole('dialog', { name: '选择支出项目' })
    await rowOf(items, `SO${s}`).click()
    await items.getByRole('button', { name: '确定', exact: true }).click()
    await expect(items).toBeHidden()
    await pane.getByRole('spinbutton', { name: '第1行金额' }).fill('12.00')
    await pane.getByRole('textbox', { name: '备注', exact: true }).first().fill(key)
    await save(page, pane, list, path, key)
    await modifyFromList(page, list, key, /第1行金额/, '12.50')
    await approveFromList(page, list, key)
  })

  await test.step('客户对账 (customer picker: Enter searches, 重置 clears) from its candidates', async () => {
    const orderId = await api.post<string>('/purchase/order/approve/pass/direct', {
      scId: f.sc.id, supplierId: f.supplier.id, products: [{ productId: f.product.id, orderNum: 5, taxPrice: '1.00', taxRate: 0 }], payTypes: [{ id: f.payType.id, payAmount: '5.00' }],
    })
    const order = await api.get<{ details: { id: string }[] }>('/purchase/order', { id: orderId })
    await api.post('/purchase/receive/sheet/approve/pass/direct', { purchaseOrderId: orderId, products: [{ productId: f.product.id, orderNum: 5, purchaseOrderDetailId: order.details[0].id }] })
    const out = await api.post<string>('/sale/out/sheet/approve/pass/direct', { scId: f.sc.id, customerId: f.customer.id, products: [{ productId: f.product.id, orderNum: 2, taxPrice: '9.00' }] })
    const outCode = await codeOf(api, '/sale/out/sheet', out)

    const checkPath = '/settle/customer/check-sheet'
    const check = await openAdd(page, checkPath)
    const party = check.pane.getByRole('textbox', { name: '客户', exact: true })
    const picker = await openPicker(page, party, '选择客户')
    const code = picker.getByRole('textbox', { name: '编号' })
    await code.fill(others[1])
    await code.press('Enter')
    await expect(picker.locator('.ant-table-row')).toHaveCount(1)
    await expect(rowOf(picker, others[1])).toHaveCount(1)
    await picker.getByRole('button', { name: /重\s*置/ }).click()
    await expect(code).toHaveValue('')
    await expect.poll(() => picker.locator('.ant-table-row').count()).toBeGreaterThan(1)
    await code.fill(f.customer.code)
    await code.press('Enter')
    await expect(picker.locator('.ant-table-row')).toHaveCount(1)
    await rowOf(picker, f.customer.code).dblclick()
    await expect(picker).toBeHidden()
    await expect(party).toHaveValue(new RegExp(`^${f.customer.code}`))

    await fillDate(page, check.pane, '起始日期', '2026-01-01')
    await fillDate(page, check.pane, '截止日期', '2099-12-31')
    await check.pane.getByRole('button', { name: '添加业务单据' }).click()
    const candidates = page.getByRole('dialog', { name: '选择业务单据' })
    await candidates.getByRole('checkbox', { name: `选择${outCode}` }).check()
    await candidates.getByRole('button', { name: '确定', exact: true }).click()
    await expect(check.pane.locator('.document-lines .ant-table-row').first()).toContainText(outCode)
    await check.pane.getByRole('textbox', { name: '备注', exact: true }).first().fill(`对账${s}`)
    await save(page, check.pane, check.list, checkPath, `对账${s}`)
    await approveFromList(page, check.list, `对账${s}`)
  })
})
