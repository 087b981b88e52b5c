import type { Locator, Page } from '@playwright/test'
import { expect, openCatalog, openMenu, rowOf, sideMenu, test, uniqueSuffix } from './helpers.js'

/**
 * 结算管理 › {group} › {item} from the menus as a user does: at this width 结算管理 sits in the header's
 * overflow (…), so it is opened from there when not shown.
 */
async function openSettleMenu(page: Page, group: string, item: string, path: string): Promise<Locator> {
  await page.goto('/')
  await openCatalog(page, '结算管理')
  // The group and its 结算单 menu share a title (供应商结算): the group comes first.
  await sideMenu(page).getByRole('menuitem', { name: group }).first().click()
  return openMenu(page, undefined, item, path)
}

/**
 * 供应商往来余额 (menu 4000015): opened from the menu tree, the list of suppliers with their 应付余额; a
 * click opens the documents behind a balance. The data comes through the API only: a supplier and an
 * approved 应付 fee sheet of 123.45, which its approval books in the settlement ledger.
 */
test('供应商往来余额: the menu opens the balances, a supplier row opens its documents', async ({ page, api }) => {
  const s = uniqueSuffix()
  const supplierId = await api.post<string>('/basedata/supplier', { code: `YE${s}`, name: `余额供应商${s}`, mnemonicCode: 'YEGYS', settleType: 1, manageType: 1 })
  const itemId = await api.post<string>('/settle/item/out', { code: `ZC${s}`, name: `运费${s}` })
  const feeId = await api.post<string>('/settle/feesheet/approve/pass/direct', { supplierId, sheetType: 2, products: [{ itemId, amount: '123.45' }] })
  const fee = await api.get<{ code: string; status: number }>('/settle/feesheet', { id: feeId })
  expect(fee.status).toBe(3)

  const pane = await openSettleMenu(page, '供应商结算', '供应商往来余额', '/settle/supplier/balance')
  for (const header of ['供应商编号', '供应商名称', '应付余额', '未结清单据数'])
    await expect(pane.locator('.ant-table-thead th').filter({ hasText: header })).toHaveCount(1)
  await expect(pane.getByRole('button', { name: '导出' })).toBeVisible()

  await pane.getByLabel('供应商编号').fill(`YE${s}`)
  await pane.getByRole('button', { name: '查询' }).click()
  const answered = await api.get<{ totalCount: number; datas: { balance: string }[] }>('/settle/report/supplier', { code: `YE${s}` })
  expect(answered.datas[0].balance).toBe('123.45')
  const row = rowOf(pane, `余额供应商${s}`)
  await expect(row).toHaveCount(1)
  const balanceCell = row.locator('td').filter({ hasText: '123.45' })
  await expect(balanceCell).toHaveCSS('text-align', 'right')
  await row.getByRole('button', { name: '往来单据' }).click()
  const drawer = page.locator('.ant-drawer').filter({ hasText: `余额供应商${s}` })
  await expect(drawer).toBeVisible()
  const docRow = rowOf(drawer, fee.code)
  await expect(docRow).toContainText('供应商费用单')
  await expect(docRow).toContainText('123.45')
  await expect(drawer.getByRole('button', { name: '导出' })).toBeVisible()
})

test('客户往来余额: the customer side opens from its menu with 应收 columns', async ({ page }) => {
  const pane = await openSettleMenu(page, '客户结算', '客户往来余额', '/settle/customer/balance')
  for (const header of ['客户编号', '客户名称', '应收余额', '未结清单据数'])
    await expect(pane.locator('.ant-table-thead th').filter({ hasText: header })).toHaveCount(1)
  await expect(pane.getByRole('checkbox', { name: '仅显示余额不为0' })).toBeVisible()
  await expect(pane.getByRole('button', { name: '导出' })).toBeVisible()
})
