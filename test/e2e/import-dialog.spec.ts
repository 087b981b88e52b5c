import ExcelJS from 'exceljs'
import { expect, openScreen, test, uniqueSuffix } from './helpers.js'

/**
 * An import through the list's 导入 dialog (issue 14): the progress bar while the task runs, the rows
 * that failed with their row numbers, the others written; and a page reload in the middle of an import
 * re-attaches the dialog to the running task.
 */

async function brandWorkbook(prefix: string, rows: number, badEvery = 0): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('商品品牌')
  sheet.addRow(['*编号', '*名称', '简称', '状态'])
  for (let i = 1; i <= rows; i++) sheet.addRow([`${prefix}-${i}`, badEvery && i % badEvery === 0 ? null : `品牌${prefix}${i}`, null, '启用'])
  return Buffer.from(await book.xlsx.writeBuffer())
}

const countOf = async (api: { get<T>(path: string, query?: Record<string, string | number | boolean>): Promise<T> }, code: string) =>
  (await api.get<{ totalCount: number }>('/basedata/product/brand/query', { code, available: true, pageSize: 1 })).totalCount

test('imports through the dialog with its progress bar, listing the failing rows', async ({ page, api }) => {
  test.setTimeout(180_000)
  const prefix = `IMP${uniqueSuffix()}`
  const pane = await openScreen(page, '/entity/productBrand')
  await pane.getByRole('button', { name: '导入', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: '导入商品品牌' })
  await expect(dialog.getByText('有误的行不导入并列出其行号，其余各行照常导入')).toBeVisible()

  await dialog.locator('input[type=file]').setInputFiles({
    name: 'brands.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await brandWorkbook(prefix, 1500, 500),
  })
  const bar = dialog.locator('.ant-progress')
  // 1,500 rows take well under a second now: the bar may already show the end when it is first seen.
  await expect(bar).toBeVisible()
  await expect(dialog.getByText('部分数据未导入（已导入1497条')).toBeVisible({ timeout: 120_000 })
  await expect(bar).toHaveClass(/ant-progress-status-exception/)
  for (const line of [501, 1001, 1501]) await expect(dialog.getByText(`第${line}行：请输入名称`)).toBeVisible()
  await expect(dialog.getByRole('button', { name: '取消导入' })).toHaveCount(0)
  expect(await countOf(api, prefix)).toBe(1497)
})

test('a page reload during an import re-attaches the dialog to the running task', async ({ page, api }) => {
  test.setTimeout(240_000)
  const ROWS = 60_000
  const prefix = `RLD${uniqueSuffix()}`
  let pane = await openScreen(page, '/entity/productBrand')
  await pane.getByRole('button', { name: '导入', exact: true }).click()
  let dialog = page.getByRole('dialog', { name: '导入商品品牌' })
  const started = page.waitForResponse((r) => r.url().includes('/basedata/product/brand/import') && r.request().method() === 'POST')
  await dialog.locator('input[type=file]').setInputFiles({
    name: 'brands.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    // Big enough to be still running after the reload (the writer takes about 10,000 rows a second).
    buffer: await brandWorkbook(prefix, ROWS),
  })
  const taskId = ((await (await started).json()) as { data: string }).data
  await expect(dialog.getByRole('button', { name: '取消导入' })).toBeVisible()

  await page.reload()
  pane = await openScreen(page, '/entity/productBrand')
  // The reloaded page polls the task started before the reload.
  const polled = page.waitForRequest((r) => r.url().includes(`/component/import/task?id=${taskId}`))
  await pane.getByRole('button', { name: '导入', exact: true }).click()
  dialog = page.getByRole('dialog', { name: '导入商品品牌' })
  await expect(dialog.locator('.ant-progress')).toBeVisible()
  await polled
  await expect(dialog.getByText(`导入成功！共${ROWS}条，新增${ROWS}条`).first()).toBeVisible({ timeout: 200_000 })
  await expect(dialog.locator('.ant-progress')).toHaveClass(/ant-progress-status-success/)
  expect(await page.evaluate(() => sessionStorage.getItem('import.task:/basedata/product/brand'))).toBeNull()
  expect(await countOf(api, prefix)).toBe(ROWS)
})
