import type { Page } from '@playwright/test'
import { expect, openScreen, paneOf, rowOf, test, toast, uniqueSuffix } from './helpers.js'

/**
 * Issue 32 "Stale screens": a tab left open shows what a write made in another tab changed when it is
 * shown again (no 查询 needed); 新增 opens a new document, never the one left half-typed in its tab;
 * closing a tab with unsaved input asks first.
 */

const showTab = (page: Page, key: string) => page.locator(`.shell-tab-label[data-tab-key="${key}"]`).click()
const BALANCE = '/settle/supplier/balance'
const FEE_SHEETS = '/settle/supplier/fee-sheet'
const ORDERS = '/purchase/order'
const ADD = '/purchase/order/add'
const DISCARD = '有未保存的内容，确定关闭吗？'

test('供应商往来余额 left open shows the balance an approval in another tab made', async ({ page, api }) => {
  test.setTimeout(90_000)
  const s = uniqueSuffix()
  const supplierId = await api.post<string>('/basedata/supplier', { code: `ST${s}`, name: `陈旧供应商${s}`, mnemonicCode: 'CJGYS', settleType: 1, manageType: 1 })
  const itemId = await api.post<string>('/settle/item/out', { code: `SZ${s}`, name: `仓储费${s}` })
  await api.post<string>('/settle/feesheet', { supplierId, sheetType: 2, products: [{ itemId, amount: '88.80' }] })

  const balance = await openScreen(page, BALANCE)
  await balance.getByLabel('供应商编号').fill(`ST${s}`)
  await balance.getByRole('button', { name: '查询' }).click()
  await expect(balance.locator('.ant-empty-description')).toHaveText('暂无数据')
  await expect(rowOf(balance, `陈旧供应商${s}`)).toHaveCount(0)

  const sheets = await openScreen(page, FEE_SHEETS)
  await rowOf(sheets, `陈旧供应商${s}`).getByRole('button', { name: '审核', exact: true }).click()
  await page.locator('.shell-pane:visible').getByRole('button', { name: '审核通过', exact: true }).click()
  await expect(toast(page, '审核通过！')).toBeVisible()

  // Back on the balance tab, as it was left: the approved sheet's 88.80 is there without 查询.
  await showTab(page, BALANCE)
  await expect(paneOf(page, BALANCE)).toBeVisible()
  await expect(rowOf(balance, `陈旧供应商${s}`)).toContainText('88.80')
})

test('新增 opens a new purchase order, and a tab with unsaved input asks before it closes', async ({ page }) => {
  test.setTimeout(90_000)
  const list = await openScreen(page, ORDERS)
  const remark = () => paneOf(page, ADD).getByRole('textbox', { name: '备注', exact: true })
  const question = page.locator('.ant-modal-confirm').filter({ hasText: DISCARD })

  await list.getByRole('button', { name: '新增', exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`${ADD}$`))
  await remark().fill('放弃的订单')

  // 新增 again from the list: the half-typed order is not shown as it was left.
  await showTab(page, ORDERS)
  await list.getByRole('button', { name: '新增', exact: true }).click()
  await expect(question).toBeVisible()
  await question.getByRole('button', { name: '确定' }).click()
  await expect(remark()).toHaveValue('')

  // An untouched 新增 tab is opened afresh without a question.
  await showTab(page, ORDERS)
  await list.getByRole('button', { name: '新增', exact: true }).click()
  await expect(remark()).toHaveValue('')
  await expect(question).toHaveCount(0)

  // Closing with unsaved input asks; 取消 keeps the tab and what was typed.
  await remark().fill('还没保存')
  const close = page.locator(`.shell-tabs .ant-tabs-tab:has(.shell-tab-label[data-tab-key="${ADD}"]) .ant-tabs-tab-remove`)
  await close.click()
  await expect(question).toBeVisible()
  await question.getByRole('button', { name: '取消' }).click()
  await expect(question).toHaveCount(0)
  await expect(remark()).toHaveValue('还没保存')
  await close.click()
  await question.getByRole('button', { name: '确定' }).click()
  await expect(paneOf(page, ADD)).toHaveCount(0)
})
