import { expect, openScreen, rowOf, test, uniqueSuffix, syncEntity } from './helpers.js'

/**
 * A custom list is a styled list like every other (issues 29, 30 and 32): fields marked sortable get
 * the server's sorter, toolbar and row buttons draw their icon, a click marks the current row, and a
 * custom form whose dialogWidth is a bare number opens that many pixels wide. Built through the API;
 * only the screen opens in Chromium.
 */

test('custom list: sortable fields sort on the server, buttons draw their icons, a bare-number dialog width is pixels', async ({ page, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  // Sorting by price is not the default order by code, and not the order of the prices as text (12 after 5.25).
  const products = [
    { code: `LD${s}1`, price: '12.00' },
    { code: `LD${s}2`, price: '1.50' },
    { code: `LD${s}3`, price: '5.25' },
  ]
  let path = ''

  await test.step('test data through the API: products, a data object, a 600 px custom form and the list', async () => {
    const categoryId = await api.post<string>('/basedata/product/category', { code: `LDC${s}`, name: `细节类目${s}`, available: true })
    const brandId = await api.post<string>('/basedata/product/brand', { code: `LDB${s}`, name: `细节品牌${s}`, available: true })
    for (const p of products)
      await api.post('/basedata/product', { code: p.code, name: `细节商品${p.code}`, skuCode: `K${p.code}`, categoryId, brandId, productType: 1, taxRate: 17, saleTaxRate: 17, retailPrice: p.price, available: true })
    const productEntity = await syncEntity(api, 'base_data_product', '商品')
    const dataObjId = await api.post<string>('/gen/data/obj', { name: `细节商品${s}`, mainTableId: productEntity, mainTableAlias: 'p' })
    const formId = await api.post<string>('/gen/custom/form', {
      name: `细节表单${s}`,
      formConfig: JSON.stringify({ type: 'object', properties: { note: { type: 'string', title: '说明', 'x-decorator': 'FormItem', 'x-component': 'Input' } } }),
      isDialog: true,
      dialogWidth: '600',
      dialogTittle: `细节对话框${s}`,
      requireQuery: false,
      handleBean: 'echo',
    })
    const listId = await api.post<string>('/gen/custom/list', {
      name: `细节列表${s}`,
      dataObjId,
      listType: 0,
      hasPage: true,
      treeData: false,
      idColumn: 'p_id',
      fields: [
        { relaId: 'p_code', name: '编号' },
        { relaId: 'p_retail_price', name: '零售价', sortable: true },
      ],
      queryParams: [{ relaId: 'p_code', name: '编号', queryType: 10 }],
      toolbars: [{ name: '填写说明', icon: 'PlusOutlined', viewType: 'primary', btnType: 2, btnConfig: formId }],
      handleColumns: [{ name: '行说明', icon: 'EditOutlined', viewType: 'link', btnType: 2, btnConfig: formId, width: 100 }],
    })
    path = `/list-details-e2e/${s.toLowerCase()}`
    await api.post('/system/menu', { code: `LDM${s}`, title: `细节列表${s}`, display: 1, componentType: 1, component: listId, path, hidden: true, available: true })
  })

  const pane = await openScreen(page, path)
  const list = pane.locator('.custom-list')
  const codesShown = () => list.locator('.ant-table-row').evaluateAll((rows) => rows.map((r) => r.querySelectorAll('td')[1]?.textContent ?? ''))

  await test.step('the list is the styled list: search card, 序号, rows of this test only', async () => {
    await list.getByRole('textbox', { name: '编号', exact: true }).fill(`LD${s}`)
    await list.getByRole('button', { name: '查询', exact: true }).click()
    await expect(list.locator('.ant-table-row')).toHaveCount(3)
    await expect(list.locator('thead th', { hasText: '序号' })).toHaveCount(1)
    await expect.poll(codesShown).toEqual(products.map((p) => p.code))
  })

  await test.step('零售价 sorts on the server, ascending then descending; 编号 has no sorter', async () => {
    const header = list.locator('thead th', { hasText: '零售价' })
    await expect(header).toHaveClass(/ant-table-column-has-sorters/)
    await expect(list.locator('thead th', { hasText: '编号' })).not.toHaveClass(/ant-table-column-has-sorters/)
    const byPrice = [...products].sort((a, b) => Number(a.price) - Number(b.price)).map((p) => p.code)
    // The sorter has no compare function: the rows come back ordered by the server.
    await header.click()
    await expect.poll(codesShown).toEqual(byPrice)
    await header.click()
    await expect.poll(codesShown).toEqual([...byPrice].reverse())
  })

  await test.step('toolbar and row buttons draw their icons; a click marks the current row', async () => {
    await expect(list.getByRole('button', { name: '填写说明' }).locator('.anticon-plus')).toBeVisible()
    const row = rowOf(list, products[0].code)
    await expect(row.getByRole('button', { name: '行说明' }).locator('.anticon-edit')).toBeVisible()
    await row.locator('td').nth(1).click()
    await expect(row).toHaveClass(/list-current-row/)
  })

  await test.step('the form of dialogWidth "600" opens 600 px wide', async () => {
    await list.getByRole('button', { name: '填写说明' }).click()
    const dialog = page.getByRole('dialog', { name: `细节对话框${s}` })
    await expect(dialog).toBeVisible()
    // The dialog role sits on the .ant-modal box that takes the width (a bare "600" was 1408 px in a 1440 px window).
    await expect.poll(async () => Math.round((await dialog.boundingBox())?.width ?? 0)).toBe(600)
  })
})
