import type { Page } from '@playwright/test'
import { expect, openScreen, paneOf, rowOf, test, toast, uniqueSuffix } from './helpers.js'

/**
 * Issue 33, hidden tabs do no work: with several tabs open, the hidden ones make no calls while hidden
 * (not on a tab switch, not after a write in the shown tab); a tab whose data another tab changed shows
 * the fresh rows when it is shown again; what was typed in a hidden tab survives; after a reload only the
 * visible tab loads its list.
 */

const BALANCE = '/settle/supplier/balance'
const FEE_SHEETS = '/settle/supplier/fee-sheet'
const ADD = '/purchase/order/add'
const LISTS = ['/system/dept', '/system/position', '/base-data/pay-type', '/base-data/customer']
const showTab = (page: Page, key: string) => page.locator(`.shell-tab-label[data-tab-key="${key}"]`).click()

/** The shell's own reads (header bell, reminders, metadata, menus, session): not a tab's. */
const SHELL_CALL = /^GET \/cloud-api\/(message\/|system\/(notice|todo)\/query\/my|basedata\/memorial\/myRemindQuery|meta\/bundle|auth\/)/

/** The API calls the tabs make from now on, as `METHOD path`. */
function recordCalls(page: Page): string[] {
  const calls: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    const call = `${request.method()} ${url.pathname}`
    if (url.pathname.startsWith('/cloud-api/') && !SHELL_CALL.test(call)) calls.push(call)
  })
  return calls
}

test('hidden tabs make no calls, show fresh rows after a write elsewhere, keep what was typed and do not load on reload', async ({ page, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  const supplierId = await api.post<string>('/basedata/supplier', { code: `HT${s}`, name: `隐藏页供应商${s}`, mnemonicCode: 'YCYGYS', settleType: 1, manageType: 1 })
  const itemId = await api.post<string>('/settle/item/out', { code: `HZ${s}`, name: `装卸费${s}` })
  await api.post<string>('/settle/feesheet', { supplierId, sheetType: 2, products: [{ itemId, amount: '66.60' }] })

  // Six tabs besides the workplace; what each one reads is noted as it opens.
  const calls = recordCalls(page)
  const readBy: Record<string, string[]> = {}
  const balance = await openScreen(page, BALANCE)
  await balance.getByLabel('供应商编号').fill(`HT${s}`)
  await balance.getByRole('button', { name: '查询' }).click()
  await expect(balance.locator('.ant-empty-description')).toHaveText('暂无数据')
  readBy[BALANCE] = [...calls]
  for (const path of LISTS) {
    calls.length = 0
    const pane = await openScreen(page, path)
    await expect(pane.locator('.ant-table-row, .ant-empty').first()).toBeVisible()
    readBy[path] = [...calls]
  }
  calls.length = 0
  const add = await openScreen(page, ADD)
  const remark = add.getByRole('textbox', { name: '备注', exact: true })
  await remark.fill('隐藏时未保存')
  readBy[ADD] = [...calls]
  const sheets = await openScreen(page, FEE_SHEETS)
  await expect(rowOf(sheets, `隐藏页供应商${s}`)).toBeVisible()
  const hiddenReads = () => calls.filter((c) => Object.values(readBy).some((reads) => reads.includes(c)))
  expect(readBy[BALANCE]).toContain('GET /cloud-api/settle/report/supplier')
  expect(readBy[LISTS[1]]).toContain('GET /cloud-api/system/position/query')

  // A tab shown again with nothing written meanwhile reads nothing, and the hidden ones stay silent.
  calls.length = 0
  await showTab(page, LISTS[1])
  await expect(paneOf(page, LISTS[1]).locator('.ant-table-row').first()).toBeVisible()
  await showTab(page, FEE_SHEETS)
  await expect(sheets).toBeVisible()
  expect(calls).toEqual([])

  // An approval in the shown tab reloads its own list; the hidden tabs read nothing.
  await rowOf(sheets, `隐藏页供应商${s}`).getByRole('button', { name: '审核', exact: true }).click()
  await page.locator('.shell-pane:visible').getByRole('button', { name: '审核通过', exact: true }).click()
  await expect(toast(page, '审核通过！')).toBeVisible()
  await expect.poll(() => calls.filter((c) => c === 'GET /cloud-api/settle/feesheet/query').length).toBeGreaterThan(0)
  expect(hiddenReads()).toEqual([])

  // The balance tab, as it was left, shows the approved 66.60 when shown, without 查询.
  calls.length = 0
  await showTab(page, BALANCE)
  await expect(rowOf(balance, `隐藏页供应商${s}`)).toContainText('66.60')
  expect(calls).toContain('GET /cloud-api/settle/report/supplier')

  // What was typed in the hidden order is still there.
  await showTab(page, ADD)
  await expect(remark).toHaveValue('隐藏时未保存')

  // F5: the tabs come back, and only the visible one reads its list.
  const visible = LISTS[3]
  await showTab(page, visible)
  await expect(paneOf(page, visible).locator('.ant-table-row, .ant-empty').first()).toBeVisible()
  calls.length = 0
  await page.reload()
  await expect(paneOf(page, visible).locator('.ant-table-row, .ant-empty').first()).toBeVisible()
  for (const key of [BALANCE, ...LISTS, ADD, FEE_SHEETS]) await expect(page.locator(`.shell-tab-label[data-tab-key="${key}"]`)).toBeVisible()
  expect(calls).toEqual(['GET /cloud-api/basedata/customer/query'])
  await expect(page.locator('.shell-pane')).toHaveCount(1)
})
