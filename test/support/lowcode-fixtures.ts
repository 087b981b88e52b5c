import type { TestApp } from './test-app.js'

export interface Column {
  id: string
  columnName: string
  name: string
  dataType: number
}

/** Products and categories, data entities synced from their tables, a data object joining them and a custom list. */
export async function buildLowcodeFixture(t: TestApp, token: string) {
  const created = async (url: string, body: Record<string, unknown>) => {
    const r = await t.call<string>('POST', url, { token, body })
    if (r.body.code !== 200) throw new Error(`${url}: ${r.body.msg}`)
    return r.body.data
  }
  const brandId = await created('/basedata/product/brand', { code: 'B01', name: '品牌一', available: true })
  const product = (code: string, name: string, retailPrice: string, categoryId: string) =>
    created('/basedata/product', { code, name, skuCode: `SKU${code}`, categoryId, brandId, productType: 1, taxRate: 17, saleTaxRate: 17, retailPrice })
  // A product names a leaf category when it is saved: 饮料's products come before 零食 is filed under it.
  const drinks = await created('/basedata/product/category', { code: 'C01', name: '饮料', available: true })
  await product('P001', '可乐', '3.50', drinks)
  await product('P002', '雪碧', '4.00', drinks)
  const snacks = await created('/basedata/product/category', { code: 'C02', name: '零食', available: true, parentId: drinks })
  await product('P003', '薯片', '8.50', snacks)
  await product('P004', '百分%_号', '12.00', snacks)

  const productEntity = await created('/gen/data/entity/sync/table', { tableName: 'base_data_product', name: '商品' })
  const categoryEntity = await created('/gen/data/entity/sync/table', { tableName: 'base_data_product_category', name: '商品类目' })
  const columns = async (id: string) => {
    const r = await t.call<Column[]>('GET', '/gen/data/entity/columns', { token, query: { id } })
    return new Map(r.body.data.map((c) => [c.columnName, c]))
  }
  const pc = await columns(productEntity)
  const cc = await columns(categoryEntity)
  const dataObj = await created('/gen/data/obj', {
    name: '商品与类目',
    mainTableId: productEntity,
    mainTableAlias: 'p',
    joins: [{ subTableId: categoryEntity, subTableAlias: 'c', relaType: 0, relaMode: 0, mainTableDetailIds: [pc.get('category_id')!.id], subTableDetailIds: [cc.get('id')!.id] }],
    customColumns: [{ customName: '双倍零售价', customSql: 'p.retail_price * 2', customAlias: 'double_price', dataType: 9 }],
  })
  const formId = await created('/gen/custom/form', {
    name: '修改类目备注',
    formConfig: JSON.stringify({ type: 'object', properties: { description: { type: 'string', title: '备注', 'x-component': 'Input' } } }),
    isDialog: true,
    dialogTittle: '修改备注',
    requireQuery: true,
    queryBean: 'updateProductCategoryRemark',
    handleBean: 'updateProductCategoryRemark',
  })
  const listBody = {
    name: '商品列表',
    dataObjId: dataObj,
    listType: 2,
    labelWidth: 100,
    hasPage: true,
    treeData: false,
    idColumn: 'p_id',
    allowExport: true,
    fields: [
      { relaId: 'p_code', width: 120, sortable: true },
      { relaId: 'p_name', name: '商品名称' },
      { relaId: 'p_retail_price', sortable: true },
      { relaId: 'p_available', hasAvailableTag: true },
      { relaId: 'c_name', name: '类目' },
      { relaId: 'custom_double_price' },
    ],
    queryParams: [
      { relaId: 'p_code', queryType: 10 },
      { relaId: 'p_name', queryType: 10 },
      { relaId: 'p_retail_price', queryType: 2 },
      { relaId: 'c_name', queryType: 0 },
      { relaId: 'p_available', queryType: 0 },
      { relaId: 'custom_double_price', queryType: 1 },
    ],
    toolbars: [{ name: '新增商品', viewType: 'primary', btnType: 1, btnConfig: '/basedata/product/add' }],
    handleColumns: [{ name: '修改备注', viewType: 'link', btnType: 2, btnConfig: formId, requestParam: 'return { id: row.c_id }', width: 100 }],
  }
  const listId = await created('/gen/custom/list', listBody)
  return { drinks, snacks, brandId, productEntity, categoryEntity, pc, cc, dataObj, formId, listId, listBody, created }
}
