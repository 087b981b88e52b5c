import type { Locator, Page } from '@playwright/test'
import { expect, expectCells, openScreen, rowOf, test } from './helpers.js'
import { approveFromList, codeOf, docMasterData, fillDate, openAdd, pick, receive, save } from './document-helpers.js'

/**
 * A supplier check sheet made on its document page from the server candidates (a receipt of the
 * supplier), approved; then two settle sheets paying it off in two parts from their own candidates:
 * the check sheet and the receipt end 已结算 and 供应商往来余额 shows the supplier at 0.00.
 */

test.describe.configure({ timeout: 120_000 })

/** 添加{subject}: ticks the candidate with this code in the dialog and confirms. */
async function addCandidate(page: Page, pane: Locator, subject: string, title: string, code: string): Promise<void> {
  await pane.getByRole('button', { name: `添加${subject}` }).click()
  const dialog = page.getByRole('dialog', { name: title })
  await dialog.getByRole('checkbox', { name: `选择${code}` }).check()
  await dialog.getByRole('button', { name: '确定', exact: true }).click()
  await expect(dialog).toBeHidden()
  await expect(pane.locator('.document-lines .ant-table-row').first()).toContainText(code)
}

test('check sheet, then two settle sheets from their candidates: the receipt ends 已结算, the balance 0.00 @pg', async ({ page, api }) => {
  const f = await docMasterData(api)
  const receipt = await receive(api, f, 4, '2.00')
  const receiptCode = await codeOf(api, '/purchase/receive/sheet', receipt)

  const checkPath = '/settle/supplier/check-sheet'
  const { list, pane } = await openAdd(page, checkPath)
  await pick(page, pane.getByRole('textbox', { name: '供应商', exact: true }), f.supplier.code)
  await fillDate(page, pane, '起始日期', '2026-01-01')
  await fillDate(page, pane, '截止日期', '2099-12-31')
  await addCandidate(page, pane, '业务单据', '选择业务单据', receiptCode)
  await expectCells(pane.locator('.document-lines .ant-table-row').first(), { 业务类型: '采购收货单', 计算方式: '加', 单据金额: '8.00' })
  await save(page, pane, list, checkPath, f.supplier.name)
  await approveFromList(page, list, f.supplier.name)
  const checks = await api.get<{ datas: { id: string; code: string; settleStatus: number }[] }>('/settle/checksheet/query', { supplierId: f.supplier.id })
  expect(checks.datas).toHaveLength(1)
  const checkCode = checks.datas[0].code

  const settlePath = '/settle/supplier/sheet'
  /** A settle sheet paying `pay` of the check sheet, whose candidate shows `unpaid`; approved from the list. */
  const settleOnce = async (unpaid: string, pay: string, key: string) => {
    const settle = await openAdd(page, settlePath)
    await pick(page, settle.pane.getByRole('textbox', { name: '供应商', exact: true }), f.supplier.code)
    await fillDate(page, settle.pane, '起始日期', '2026-01-01')
    await fillDate(page, settle.pane, '截止日期', '2099-12-31')
    await addCandidate(page, settle.pane, '对账单', '选择对账单', checkCode)
    await expectCells(settle.pane.locator('.document-lines .ant-table-row').first(), { 未付金额: unpaid })
    await settle.pane.getByRole('spinbutton', { name: '第1行实付金额' }).fill(pay)
    await settle.pane.getByRole('textbox', { name: '备注', exact: true }).first().fill(key)
    await save(page, settle.pane, settle.list, settlePath, key)
    await approveFromList(page, settle.list, key)
  }
  await settleOnce('8.00', '3.00', `第一次付款${f.s}`)
  expect((await api.get<{ settleStatus: number; totalPayedAmount: string }>('/settle/checksheet', { id: checks.datas[0].id })).settleStatus).toBe(1)
  await settleOnce('5.00', '5.00', `第二次付款${f.s}`)

  expect((await api.get<{ settleStatus: number }>('/settle/checksheet', { id: checks.datas[0].id })).settleStatus).toBe(3)
  expect((await api.get<{ settleStatus: number }>('/purchase/receive/sheet', { id: receipt })).settleStatus).toBe(3)

  // 供应商往来余额: the supplier owes nothing any more.
  const balance = await openScreen(page, '/settle/supplier/balance')
  await balance.getByLabel('供应商编号').fill(f.supplier.code)
  await balance.getByRole('button', { name: '查询' }).click()
  await expectCells(rowOf(balance, f.supplier.name), { 应付余额: '0.00' })
})
