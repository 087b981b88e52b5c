import { expect, openScreen, paneOf, rowOf, test, toast, uniqueSuffix, expectPicked } from './helpers.js'
import { pick } from './document-helpers.js'

/**
 * A contract's money in the browser: an approved contract gets a two-period collection plan in the plan
 * editor (the editor refuses more than the contract amount), a collection is recorded against period 1,
 * the detail, print and H5 (375 px) pages show received and unreceived amounts.
 */
test('contract: two-period collection plan, a collection, detail, print and H5 pages', async ({ page, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  const customerId = await api.post<string>('/basedata/customer', { code: `K${s}`, name: `客户${s}`, settleType: 1 })
  const contractId = await api.post<string>('/crm/contract', { contractNo: `HT${s}`, name: `供货合同${s}`, customerId, amount: '1000.00', signDate: '2026-01-05' })
  await api.post('/crm/contract/approve', { id: contractId })

  const list = await openScreen(page, '/crm/contract')
  const row = rowOf(list, `HT${s}`)
  await expect(row).toContainText('审核通过')
  await row.getByRole('button', { name: '回款', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: `回款：HT${s} 供货合同${s}` })
  // Before there is a plan nothing shows in red: 未回款 is not owed yet.
  const owedValue = dialog.locator('.ant-statistic').filter({ hasText: '未回款' }).locator('.ant-statistic-content')
  await expect(owedValue).toBeVisible()
  expect(await owedValue.evaluate((el) => getComputedStyle(el).color)).not.toBe('rgb(207, 19, 34)')
  await dialog.getByRole('button', { name: '编辑回款计划' }).click()
  // Each new period starts with what the contract leaves to plan: 1000.00, then 400.00 after 600.
  for (const [date, amount, proposed] of [['2026-02-01', '600', '1000.00'], ['2099-03-01', '400.01', '400.00']]) {
    await dialog.getByRole('button', { name: '新增一期' }).click()
    const last = dialog.locator('.crm-plan-editor .ant-table-row').last()
    await expect(last.getByLabel('计划回款金额')).toHaveValue(proposed)
    await last.getByLabel('计划回款日期').fill(date)
    await last.getByLabel('计划回款日期').press('Enter')
    await last.getByLabel('计划回款金额').fill(amount)
  }
  await expect(dialog).toContainText('回款计划总金额（1000.01）不能超过合同金额（1000.00）！')
  await dialog.locator('.crm-plan-editor .ant-table-row').last().getByLabel('计划回款金额').fill('400')
  await dialog.getByRole('button', { name: '保存回款计划' }).click()
  await expect(toast(page, '回款计划已保存')).toBeVisible()
  const first = rowOf(dialog, '第1期')
  await expect(first).toContainText('600.00')
  await expect(first).toContainText('已逾期')
  await first.getByRole('button', { name: '登记回款' }).click()
  const receive = page.getByRole('dialog', { name: /登记回款：第1期/ })
  await receive.getByLabel('回款金额').fill('250.50')
  await receive.getByRole('button', { name: '确定' }).click()
  await expect(toast(page, '回款已登记')).toBeVisible()
  await expect(rowOf(dialog, '第1期')).toContainText('349.50')
  await expect(dialog).toContainText('749.50')
  expect(await owedValue.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(207, 19, 34)')

  await page.goto(`/crm/contract/detail/${contractId}`)
  const detail = paneOf(page, `/crm/contract/detail/${contractId}`)
  await expect(detail).toContainText(`HT${s} 供货合同${s}`)
  await expect(detail.locator('.crm-payment')).toContainText('250.50')

  await page.goto(`/crm/contract/print/${contractId}`)
  const printed = paneOf(page, `/crm/contract/print/${contractId}`)
  await expect(printed.getByRole('button', { name: '打印' })).toBeVisible()
  await expect(printed).toContainText('第2期')

  await page.setViewportSize({ width: 375, height: 740 })
  await page.goto(`/crm/contract/h5/${contractId}`)
  const h5 = page.locator('.crm-deal-h5')
  await expect(h5).toContainText('计划 600.00 · 已回 250.50 · 未回 349.50')
  const width = await h5.evaluate((el) => el.scrollWidth)
  expect(width).toBeLessThanOrEqual(375)
})

/** An opportunity approved from its list, its detail and overview pages; a birthday coming in the bell's 待办. */
test('opportunity approval and pages; memorial reminder in the bell', async ({ page, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  const customerId = await api.post<string>('/basedata/customer', { code: `B${s}`, name: `商机客户${s}`, settleType: 1 })
  const businessId = await api.post<string>('/crm/business', { name: `商机${s}`, customerId, stage: 3, amount: '88000.5', expectedCloseDate: '2030-01-01' })
  const soon = new Date(Date.now() + 86_400_000 + 8 * 3_600_000).toISOString().slice(5, 10)
  await api.post('/basedata/memorial', { title: `生日${s}`, memorialType: 1, memorialDate: `1990-${soon}`, remindDays: 3, customerId })

  const list = await openScreen(page, '/crm/business')
  const row = rowOf(list, `商机${s}`)
  await expect(row).toContainText('88000.50')
  await row.getByRole('button', { name: '审核', exact: true }).click()
  const approve = page.getByRole('dialog', { name: '审核商机' })
  await approve.getByText('拒绝', { exact: true }).click()
  await approve.getByRole('button', { name: /确\s*定/ }).click()
  await expect(toast(page, '请输入拒绝理由')).toBeVisible()
  await approve.getByText('通过', { exact: true }).click()
  await approve.getByRole('button', { name: /确\s*定/ }).click()
  await expect(toast(page, '审核通过')).toBeVisible()
  await expect(rowOf(list, `商机${s}`)).toContainText('审核通过')

  await rowOf(list, `商机${s}`).getByRole('button', { name: '详情', exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`/crm/business/detail/${businessId}$`))
  const detail = paneOf(page, `/crm/business/detail/${businessId}`)
  await expect(detail).toContainText(`商机客户${s}`)
  await detail.getByRole('button', { name: '概览' }).click()
  await expect(paneOf(page, `/crm/business/detailV2/${businessId}`).locator('.ant-steps')).toContainText('方案/报价')

  // A contract from the opportunity: choosing the 商机 fills in its customer, name and amount; the
  // contract number comes proposed by the numbering rule.
  await page.goto('/crm/contract/add')
  const add = paneOf(page, '/crm/contract/add')
  await expect(add.getByRole('textbox', { name: '合同编号', exact: true })).toHaveValue(/^HT\d{12}$/)
  // The person in charge starts as the signed-in user.
  await expect(add.getByRole('textbox', { name: '负责人', exact: true })).toHaveValue(/系统管理员/)
  await pick(page, add.getByRole('textbox', { name: '商机', exact: true }), `商机${s}`)
  await expectPicked(add.getByRole('textbox', { name: '客户', exact: true }), `B${s}`, `商机客户${s}`)
  await expect(add.getByRole('textbox', { name: '合同名称', exact: true })).toHaveValue(`商机${s}`)
  await expect(add.getByRole('spinbutton', { name: '合同金额', exact: true })).toHaveValue('88000.50')
  await add.getByRole('textbox', { name: '合同编号', exact: true }).fill(`C${s}`)
  await add.getByRole('textbox', { name: '合同名称', exact: true }).fill(`商机合同${s}`)
  await add.getByRole('textbox', { name: '签约日期', exact: true }).fill('2026-03-01')
  await add.getByRole('textbox', { name: '签约日期', exact: true }).press('Enter')
  await add.getByRole('button', { name: /确\s*定/ }).click()
  await expect(page).toHaveURL(/\/crm\/contract\/detail\/[0-9a-f]+$/)
  await expect(page.locator('.shell-pane:visible .crm-deal')).toContainText(`C${s} 商机合同${s}`)

  await page.getByRole('button', { name: /通知/ }).first().click()
  await page.getByRole('tab', { name: /待办/ }).click()
  await expect(page.locator('.notice-bell-panel')).toContainText(`生日${s}`)
})
