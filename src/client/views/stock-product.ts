import type { ListSource } from '../runtime/list-source.js'
import { term } from '../i18n/term.js'
import { PERMISSION } from '../../shared/generated/permission-keys.js'

/**
 * 库存 → 商品库存 (`GET /stock/product/query`): one row per product and warehouse with its quantity and
 * moving-average unit cost, filtered by warehouse and product code, name or SKU; 导出 as xlsx. Essentials
 * first (product, warehouse, quantity, cost): at 1440 px they fit; the details scroll right.
 */
export const STOCK_PRODUCT_VIEW: ListSource = {
  name: 'stock-list',
  path: '/stock/product/query',
  fields: {
    scId: { type: 'ref', label: term('仓库'), ref: 'storeCenter', picker: 'sc' },
    productCode: { type: 'string', label: term('商品编号') },
    productName: { type: 'string', label: term('商品名称') },
    skuCode: { type: 'string', label: term('SKU编号') },
  },
  query: [{ field: 'scId' }, { field: 'productCode' }, { field: 'productName' }, { field: 'skuCode' }],
  export: { path: '/stock/product/export', method: 'post', permission: PERMISSION.stock.product.export },
  columns: [
    { key: 'productCode', title: term('商品编号'), width: 120 },
    { key: 'productName', title: term('商品名称'), width: 180 },
    { key: 'scName', title: term('仓库名称'), width: 140 },
    { key: 'stockNum', title: term('库存数量'), width: 100, numeric: true },
    { key: 'taxPrice', title: term('含税成本价'), width: 120, numeric: true },
    { key: 'taxAmount', title: term('含税成本金额'), width: 130, numeric: true },
    { key: 'unit', title: term('单位'), width: 70 },
    { key: 'skuCode', title: term('SKU编号'), width: 120 },
    { key: 'spec', title: term('规格'), width: 100 },
    { key: 'categoryName', title: term('类目'), width: 120 },
    { key: 'brandName', title: term('品牌'), width: 120 },
    { key: 'scCode', title: term('仓库编号'), width: 120 },
  ],
}
