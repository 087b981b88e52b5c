import { expect, expectCells, openScreen, paneOf, rowOf, test, uniqueSuffix, type AdminApi } from './helpers.js'
import type { Locator, Page } from '@playwright/test'

/**
 * The two readings of the stock ledger: 商品库存变动记录 filtered by warehouse, product and business type,
 * each row opening the document behind it; 商品批次库存 showing each inbound movement as a lot with its
 * price, and opening its document. Stock moves through approved stock adjust sheets made by the API.
 */

interface Fixtures {
  s: string
  sc: { id: string; code: string; name: string }
  other: { id: string; code: string; name: string }
  product: { id: string; code: string; name: string }
  reason: string
}

async function masterData(api: AdminApi): Promise<Fixtures> {
  const s = uniqueSuffix()
  const sc = async (n: string) => ({ id: await api.post<string>('/basedata/storecenter', { code: `L${s}${n}`, name: `账仓${n}${s}` }), code: `L${s}${n}`, name: `账仓${n}${s}` })
  const main = await sc('A')
  const other = await sc('B')
  const categoryId = await api.post<string>('/basedata/product/category', { code: `LC${s}`, name: `账类${s}` })
  const brandId = await api.post<string>('/basedata/product/brand', { code: `LB${s}`, name: `账牌${s}` })
  const code = `LP${s}`
  const name = `台账商品${s}`
  const id = await api.post<string>('/basedata/product', {
    code,
    name,
    skuCode: `LK${s}`,
    categoryId,
    brandId,
    productType: 1,
    taxRate: 0,
    saleTaxRate: 0,
    purchasePrice: '2.50',
    salePrice: '4.00',
    retailPrice: '4.00',
  })
  const reason = await api.post<string>('/stock/adjust/reason', { code: `LR${s}`, name: `台账原因${s}` })
  return { s, sc: main, other, product: { id, code, name }, reason }
}

/** An approved stock adjust (in: bizType 0, out: 2) of the product; answers the sheet's id and number. */
async function adjust(api: AdminApi, f: Fixtures, scId: string, direction: 0 | 2, num: number): Promise<{ id: string; code: string }> {
  const id = await api.post<string>('/stock/adjust/approve/pass/direct', { scId, bizType: direction, reasonId: f.reason, products: [{ productId: f.product.id, stockNum: num }] })
  const sheet = await api.get<{ code: string }>('/stock/adjust', { id })
  return { id, code: sheet.code }
}

/** A select of the search form (its accessible name carries the label's colon). */
async function choose(page: Page, pane: Locator, label: string, option: string) {
  // The chosen option's text lies over the input: click the select's box.
  await pane.locator('.ant-select', { has: page.getByRole('combobox', { name: new RegExp(`^${label}`) }) }).click()
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click()
}

async function pickOne(page: Page, input: Locator, code: string, several = false) {
  await input.click()
  const picker = page.getByRole('dialog', { name: /^选择/ })
  if (several) {
    await rowOf(picker, code).click()
    await picker.getByRole('button', { name: '确定', exact: true }).click()
  } else await rowOf(picker, code).dblclick()
  await expect(picker).toBeHidden()
}

test('商品库存变动记录: filter by warehouse, product and business type; a row opens its document', async ({ page, api }) => {
  test.setTimeout(90_000)
  const f = await masterData(api)
  const inA = await adjust(api, f, f.sc.id, 0, 5)
  const outA = await adjust(api, f, f.sc.id, 2, 2)
  await adjust(api, f, f.other.id, 0, 7)

  const pane = await openScreen(page, '/stock/product-log')
  await pickOne(page, pane.getByPlaceholder('请选择仓库'), f.sc.code)
  await pickOne(page, pane.getByPlaceholder('请选择商品'), f.product.code, true)
  await pane.getByRole('button', { name: '查询' }).click()
  // Warehouse B's movement is filtered out; the two of A are there, newest first.
  await expect(pane.locator('.ant-table-row')).toHaveCount(2)
  await expectCells(rowOf(pane, outA.code), { 业务类型: '库存调整', 仓库: f.sc.name, 商品编号: f.product.code, 变动数量: '-2', 现库存数量: '3', 原库存数量: '5' })
  await expectCells(rowOf(pane, inA.code), { 变动数量: '5', 现库存数量: '5', 原库存数量: '0', 现含税成本价: '2.500000', 变动含税金额: '12.50' })

  // 业务类型 narrows to what was asked: no stock adjust is a 销售出库.
  await choose(page, pane, '业务类型', '销售出库')
  await pane.getByRole('button', { name: '查询' }).click()
  await expect(pane.locator('.ant-empty-description')).toHaveText('暂无数据')
  await expect(pane.locator('.ant-table-row')).toHaveCount(0)
  await choose(page, pane, '业务类型', '库存调整')
  await pane.getByRole('button', { name: '查询' }).click()
  await expect(pane.locator('.ant-table-row')).toHaveCount(2)

  // The document number opens that stock adjust sheet's detail page.
  await rowOf(pane, outA.code).getByRole('button', { name: outA.code }).click()
  await expect(page).toHaveURL(new RegExp(`/stock/stock-adjust/detail/${outA.id}$`))
  const detail = paneOf(page, `/stock/stock-adjust/detail/${outA.id}`)
  await expect(detail).toBeVisible()
  await expect(detail).toContainText(outA.code)
  await expect(detail).toContainText(f.product.code)
})

test('商品批次库存: each inbound movement is a lot with its price; the lot opens its document', async ({ page, api }) => {
  test.setTimeout(90_000)
  const f = await masterData(api)
  const first = await adjust(api, f, f.sc.id, 0, 4)
  await adjust(api, f, f.sc.id, 2, 1)
  const second = await adjust(api, f, f.other.id, 0, 6)

  const pane = await openScreen(page, '/stock/lot')
  await pickOne(page, pane.getByPlaceholder('请选择商品'), f.product.code, true)
  await pane.getByRole('button', { name: '查询' }).click()
  // Two lots (the movement out is none), each with its warehouse, quantity and value.
  await expect(pane.locator('.ant-table-row')).toHaveCount(2)
  await expectCells(rowOf(pane, first.code), { 仓库: f.sc.name, 入库数量: '4', 含税单价: '2.500000', 含税金额: '10.00', 业务类型: '库存调整' })
  await expectCells(rowOf(pane, second.code), { 仓库: f.other.name, 入库数量: '6', 含税金额: '15.00' })

  await pane.getByPlaceholder('请输入批次号').fill(second.code)
  await pane.getByRole('button', { name: '查询' }).click()
  await expect(pane.locator('.ant-table-row')).toHaveCount(1)
  await rowOf(pane, second.code).getByRole('button', { name: second.code }).click()
  await expect(page).toHaveURL(new RegExp(`/stock/stock-adjust/detail/${second.id}$`))
  await expect(paneOf(page, `/stock/stock-adjust/detail/${second.id}`)).toContainText(f.other.code)
})

test('商品库存 at 1440 px: quantity and cost are on screen without scrolling', async ({ page, api }) => {
  const f = await masterData(api)
  await adjust(api, f, f.sc.id, 0, 3)
  const pane = await openScreen(page, '/stock/product')
  await pane.getByRole('textbox', { name: '商品编号', exact: true }).fill(f.product.code)
  await pane.getByRole('button', { name: '查询' }).click()
  const row = rowOf(pane, f.product.code)
  await expectCells(row, { 库存数量: '3', 含税成本价: '2.500000', 含税成本金额: '7.50' })
  const width = page.viewportSize()!.width
  for (const title of ['商品名称', '仓库名称', '库存数量', '含税成本价', '含税成本金额']) {
    const box = await pane.getByRole('columnheader', { name: title, exact: true }).boundingBox()
    expect(box, title).not.toBeNull()
    expect(box!.x + box!.width, title).toBeLessThanOrEqual(width)
  }
})
