import type { Locator, Page } from '@playwright/test'
import { browserToday, expect, openScreen, paneOf, rowOf, test } from './helpers.js'
import { approveFromList, codeOf, dateInput, docMasterData, modifyFromList, openAdd, pick, receive, save, type DocFixtures } from './document-helpers.js'

/**
 * What the clerk no longer types (issue 32): a check sheet's dates start where the party's last one
 * ended (the first one at the party's oldest open document) and end today; 结算 on an approved check
 * sheet opens a settle sheet with its party, its dates and itself as the line. And the customer-side
 * settlement pages no browser test walked (issue 30): 预收款单 and 客户费用单 added, modified and
 * approved, then 客户对账单 and 客户结算单 the same way, the settle sheet made from the check sheet.
 */

test.describe.configure({ timeout: 180_000 })

const nextDay = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + 1)
  return d.toISOString().slice(0, 10)
}

/** 添加{subject}: ticks these candidates in the dialog and confirms; the lines then show the first. */
async function addCandidates(page: Page, pane: Locator, subject: string, title: string, ...codes: string[]): Promise<void> {
  await pane.getByRole('button', { name: `添加${subject}` }).click()
  const dialog = page.getByRole('dialog', { name: title })
  for (const code of codes) await dialog.getByRole('checkbox', { name: `选择${code}` }).check()
  await dialog.getByRole('button', { name: '确定', exact: true }).click()
  await expect(dialog).toBeHidden()
  await expect(pane.locator('.document-lines .ant-table-row')).toHaveCount(codes.length)
}

/** A new check sheet of the party: once it is chosen, 起始日期 becomes `start` and 截止日期 is today. */
async function checkSheetDates(page: Page, path: string, partyLabel: string, partyCode: string, start: string) {
  const opened = await openAdd(page, path)
  const today = await browserToday(page)
  await expect(dateInput(page, opened.pane, '截止日期')).toHaveValue(today)
  await pick(page, opened.pane.getByRole('textbox', { name: partyLabel, exact: true }), partyCode)
  await expect(dateInput(page, opened.pane, '起始日期')).toHaveValue(start)
  await expect(dateInput(page, opened.pane, '截止日期')).toHaveValue(today)
  return opened
}

/** 结算 on the approved check sheet's row: the settle sheet's add page with the party, the dates and the check sheet. */
async function settleFromCheck(page: Page, checkList: Locator, key: string, settlePath: string, check: { code: string; startDate: string; endDate: string }, party: { label: string; code: string; pays: string }, unpaid: string) {
  await rowOf(checkList, key).getByRole('button', { name: '结算', exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`${settlePath}/add\\?madeFrom=`))
  const pane = paneOf(page, `${settlePath}/add`)
  await expect(pane.getByRole('textbox', { name: party.label, exact: true })).toHaveValue(new RegExp(`^${party.code}`))
  await expect(dateInput(page, pane, '起始日期')).toHaveValue(check.startDate.slice(0, 10))
  await expect(dateInput(page, pane, '截止日期')).toHaveValue(check.endDate.slice(0, 10))
  const line = pane.locator('.document-lines .ant-table-row')
  await expect(line).toHaveCount(1)
  await expect(line.first()).toContainText(check.code)
  await expect(line.first()).toContainText(unpaid)
  await expect(pane.getByRole('spinbutton', { name: `第1行${party.pays}` })).toHaveValue(unpaid)
  return pane
}

type CheckRow = { id: string; code: string; startDate: string; endDate: string; settleStatus: number }

test('supplier check sheet: dates from the oldest open document, then from the last check sheet; 结算 makes the settle sheet of it @pg', async ({ page, api }) => {
  const f = await docMasterData(api)
  const receipt = await receive(api, f, 4, '2.00')
  const receiptCode = await codeOf(api, '/purchase/receive/sheet', receipt)
  const approved = (await api.get<{ approveTime: string }>('/purchase/receive/sheet', { id: receipt })).approveTime.slice(0, 10)

  const checkPath = '/settle/supplier/check-sheet'
  const key = `对账${f.s}`
  const first = await checkSheetDates(page, checkPath, '供应商', f.supplier.code, approved)
  await addCandidates(page, first.pane, '业务单据', '选择业务单据', receiptCode)
  await first.pane.getByRole('textbox', { name: '备注', exact: true }).first().fill(key)
  await save(page, first.pane, first.list, checkPath, key)
  await approveFromList(page, first.list, key)
  const check = (await api.get<{ datas: CheckRow[] }>('/settle/checksheet/query', { supplierId: f.supplier.id })).datas[0]

  // The next one starts the day after this one ends; nothing of the supplier is open any more.
  const second = await checkSheetDates(page, checkPath, '供应商', f.supplier.code, nextDay(check.endDate.slice(0, 10)))
  await expect(second.pane.locator('.document-lines .ant-table-row')).toHaveCount(0)
  await openScreen(page, checkPath)

  const settlePath = '/settle/supplier/sheet'
  const pane = await settleFromCheck(page, first.list, key, settlePath, check, { label: '供应商', code: f.supplier.code, pays: '实付金额' }, '8.00')
  const settleKey = `结算${f.s}`
  await pane.getByRole('textbox', { name: '备注', exact: true }).first().fill(settleKey)
  const settleList = paneOf(page, settlePath)
  await save(page, pane, settleList, settlePath, settleKey)
  await approveFromList(page, settleList, settleKey)
  expect((await api.get<CheckRow>('/settle/checksheet', { id: check.id })).settleStatus).toBe(3)
  expect((await api.get<{ settleStatus: number }>('/purchase/receive/sheet', { id: receipt })).settleStatus).toBe(3)
})

/** A customer item sheet (预收款单, 客户费用单): one 收入项目 line of `amount`, saved, modified to `modified`, approved. */
async function itemSheet(page: Page, f: DocFixtures, path: string, key: string, item: string, amount: string, modified: string): Promise<void> {
  const { list, pane } = await openAdd(page, path)
  await pick(page, pane.getByRole('textbox', { name: '客户', exact: true }), f.customer.code)
  await pane.getByRole('button', { name: '添加项目' }).click()
  const items = page.getByRole('dialog', { name: '选择收入项目' })
  await rowOf(items, item).click()
  await items.getByRole('button', { name: '确定', exact: true }).click()
  await expect(items).toBeHidden()
  await pane.getByRole('spinbutton', { name: '第1行金额' }).fill(amount)
  await pane.getByRole('textbox', { name: '备注', exact: true }).first().fill(key)
  await save(page, pane, list, path, key)
  await modifyFromList(page, list, key, /第1行金额/, modified)
  await approveFromList(page, list, key)
}

test('customer settlement pages: 预收款单 and 客户费用单 added, modified, approved; 客户对账单 with its dates, modified, approved; 客户结算单 made from it, modified, approved @pg', async ({ page, api }) => {
  const f = await docMasterData(api)
  const s = f.s
  await api.post('/settle/item/in', { code: `SI${s}`, name: `收入项${s}` })
  await receive(api, f, 5, '1.00')
  const out = await api.post<string>('/sale/out/sheet/approve/pass/direct', { scId: f.sc.id, customerId: f.customer.id, products: [{ productId: f.product.id, orderNum: 2, taxPrice: '9.00' }] })
  const outCode = await codeOf(api, '/sale/out/sheet', out)
  const outDay = (await api.get<{ approveTime: string }>('/sale/out/sheet', { id: out })).approveTime.slice(0, 10)

  await itemSheet(page, f, '/settle/customer/pre-sheet', `预收${s}`, `SI${s}`, '10.00', '10.50')
  await itemSheet(page, f, '/settle/customer/fee-sheet', `费用${s}`, `SI${s}`, '3.00', '3.50')
  const fees = await api.get<{ datas: { code: string }[] }>('/customer/settle/feesheet/query', { customerId: f.customer.id })
  expect(fees.datas).toHaveLength(1)

  const checkPath = '/settle/customer/check-sheet'
  const key = `客户对账${s}`
  const check = await checkSheetDates(page, checkPath, '客户', f.customer.code, outDay)
  await addCandidates(page, check.pane, '业务单据', '选择业务单据', outCode, fees.datas[0].code)
  await expect(check.pane.locator('.document-lines .ant-table-row').first()).toContainText(outCode)
  await check.pane.getByRole('textbox', { name: '备注', exact: true }).first().fill(key)
  await save(page, check.pane, check.list, checkPath, key)
  // The sale out's line (ticked first) gives 1.00 back for now: 应收 17.00 + 3.50.
  await modifyFromList(page, check.list, key, /第1行应收金额/, '17.00', '20.50')
  await approveFromList(page, check.list, key)
  const row = (await api.get<{ datas: CheckRow[] }>('/customer/settle/checksheet/query', { customerId: f.customer.id })).datas[0]

  const settlePath = '/settle/customer/sheet'
  const pane = await settleFromCheck(page, check.list, key, settlePath, row, { label: '客户', code: f.customer.code, pays: '实收金额' }, '20.50')
  const settleKey = `客户结算${s}`
  await pane.getByRole('spinbutton', { name: '第1行实收金额' }).fill('20.00')
  await pane.getByRole('textbox', { name: '备注', exact: true }).first().fill(settleKey)
  const settleList = paneOf(page, settlePath)
  await save(page, pane, settleList, settlePath, settleKey)
  await modifyFromList(page, settleList, settleKey, /第1行实收金额/, '20.50')
  await approveFromList(page, settleList, settleKey)
  expect((await api.get<CheckRow>('/customer/settle/checksheet', { id: row.id })).settleStatus).toBe(3)
  expect((await api.get<{ settleStatus: number }>('/sale/out/sheet', { id: out })).settleStatus).toBe(3)
})
