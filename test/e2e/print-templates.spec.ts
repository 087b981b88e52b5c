import { readFile } from 'node:fs/promises'
import type { Download, Locator, Page } from '@playwright/test'
import { PDFParse } from 'pdf-parse'
import { expect, openScreen, rowOf, test, toast, type AdminApi } from './helpers.js'
import { docMasterData } from './document-helpers.js'
import { rmbCapitals } from '../../src/shared/print/rmb-capitals.js'
import type { PrintTemplateDetail, PrintTemplateRow } from '../../src/shared/contracts/print.js'

/**
 * Print templates (issue 34) in Chromium: a template designed by dragging a field, the line table and
 * the number's barcode onto the page, saved; a purchase order printed from its page with it (the PDF
 * read back: header fields, lines and the capitals in reading order); 批量打印 of 3 orders from the
 * list gives 3 × the pages of one.
 */

const pdfOf = async (download: Download) => new PDFParse({ data: new Uint8Array(await readFile((await download.path())!)) }).getText()

/** Drags a designer item onto the page at a fraction of the page's width and height. */
async function dragOnto(page: Page, dialog: Locator, item: string, fx: number, fy: number) {
  const canvas = dialog.locator('.print-designer-canvas')
  const spot = await canvas.evaluate((el, [x, y]) => {
    const c = el.getBoundingClientRect()
    const paper = [...el.querySelectorAll('div')].find((d) => {
      const r = d.getBoundingClientRect()
      return r.width > 100 && Math.abs(r.height / r.width - 297 / 210) < 0.01
    })
    const r = (paper ?? el).getBoundingClientRect()
    return { x: r.left - c.left + r.width * x, y: r.top - c.top + r.height * y }
  }, [fx, fy] as const)
  await dialog.locator(`.print-designer-item[data-item="${item}"]`).dragTo(canvas, { targetPosition: spot })
}

async function order(api: AdminApi, f: Awaited<ReturnType<typeof docMasterData>>, second: { id: string }, nums: [number, number]) {
  const amount = (nums[0] * 12.5 + nums[1] * 3.35).toFixed(2)
  return api.post<string>('/purchase/order', {
    scId: f.sc.id,
    supplierId: f.supplier.id,
    description: `备注${f.s}`,
    products: [
      { productId: f.product.id, orderNum: nums[0], taxPrice: '12.50', taxRate: 0 },
      { productId: second.id, orderNum: nums[1], taxPrice: '3.35', taxRate: 0 },
    ],
    payTypes: [{ id: f.payType.id, payAmount: amount }],
  })
}

test('design a purchase order template by dragging, print an order with it and a batch of 3 from the list', async ({ page, api }) => {
  test.setTimeout(180_000)
  const f = await docMasterData(api)
  const categoryId = await api.post<string>('/basedata/product/category', { code: `C2${f.s}`, name: `类目二${f.s}` })
  const brandId = await api.post<string>('/basedata/product/brand', { code: `B2${f.s}`, name: `品牌二${f.s}` })
  const second = {
    id: await api.post<string>('/basedata/product', { code: `Q${f.s}`, name: `第二商品${f.s}`, skuCode: `Q${f.s}`, categoryId, brandId, productType: 1, taxRate: 0, saleTaxRate: 0, purchasePrice: '1.00', salePrice: '2.00', retailPrice: '2.00' }),
  }
  const ids = [await order(api, f, second, [3, 2]), await order(api, f, second, [1, 1]), await order(api, f, second, [2, 5])]

  const pane = await openScreen(page, '/system/print-template')
  await pane.locator('.ant-select', { has: page.getByRole('combobox', { name: '单据类型' }) }).click()
  await page.locator('.ant-select-item-option').filter({ hasText: /^采购订单$/ }).click()
  await pane.getByRole('button', { name: '新建' }).click()
  const dialog = page.getByRole('dialog').filter({ hasText: '拖到页面上' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('button', { name: '保存' })).toBeEnabled()
  const name = `套打${f.s}`
  await dialog.getByLabel('模板名称').fill(name)
  await dragOnto(page, dialog, 'code128:code', 0.55, 0.03)
  await dragOnto(page, dialog, 'field:printTime', 0.05, 0.4)
  await dragOnto(page, dialog, 'table:lines', 0.05, 0.46)
  // The line table's columns: fewer, so each is wide enough for a product's name on one line.
  for (const column of ['商品编号', '单位', '规格', '税率（%）', '备注']) await dialog.getByRole('checkbox', { name: column, exact: true }).uncheck()
  await dialog.getByRole('button', { name: '保存' }).click()
  await expect(toast(page, '保存成功')).toBeVisible()
  await expect(rowOf(pane, name)).toBeVisible()

  // What was dropped is in the stored template, where it was dropped.
  const rows = await api.get<PrintTemplateRow[]>('/system/print-template/query', { kind: 'purchaseOrder' })
  const saved = await api.get<PrintTemplateDetail>('/system/print-template', { id: rows.find((r) => r.name === name)!.id })
  const byName = new Map(saved.content.schemas.map((s) => [s.name, s]))
  expect(byName.get('codeBarcode')?.type).toBe('code128')
  expect(byName.get('printTime')?.type).toBe('text')
  expect(byName.get('lines')?.position.y).toBeGreaterThan(60)
  expect(saved.content.lineColumns).toEqual(['rowNo', 'productName', 'orderNum', 'taxPrice'])
  if (!saved.isDefault) await api.patch('/system/print-template/default', { id: saved.id })

  // 打印 on the order's page: the PDF with the designed template.
  const code = (await api.get<{ code: string }>('/purchase/order', { id: ids[0] })).code
  const detail = await openScreen(page, `/purchase/order/detail/${ids[0]}`)
  const [single] = await Promise.all([page.waitForEvent('download'), detail.getByRole('button', { name: /打印/ }).first().click()])
  const one = await pdfOf(single)
  const text = one.text
  const total = (3 * 12.5 + 2 * 3.35).toFixed(2)
  const positions = [code, `供应商${f.s}`, '打印时间', '序号', f.product.name, `第二商品${f.s}`, total, rmbCapitals(total)].map((s) => {
    const at = text.indexOf(s)
    expect(at, `${s} in the PDF`).toBeGreaterThanOrEqual(0)
    return at
  })
  expect([...positions].sort((a, b) => a - b), text).toEqual(positions)
  expect((await api.get<{ printCount: number }>('/purchase/order', { id: ids[0] })).printCount).toBe(1)

  // 批量打印 of the three from the list.
  const list = await openScreen(page, '/purchase/order')
  for (const id of ids) {
    const c = (await api.get<{ code: string }>('/purchase/order', { id })).code
    await rowOf(list, c).locator('.ant-checkbox-input').check()
  }
  const [batch] = await Promise.all([page.waitForEvent('download'), list.getByRole('button', { name: /批量打印/ }).first().click()])
  const all = await pdfOf(batch)
  expect(all.total).toBe(3 * one.total)
})
