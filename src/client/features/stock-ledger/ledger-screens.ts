import { STOCK_LOT_PARAMS } from '../../../shared/contracts/stock-lot-query.js'
import type { LedgerColumn } from './StockLedgerScreen.js'
import { term } from '../../i18n/term.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/**
 * 商品库存变动记录 (`/stock/product/log/query`): when, why (business type and its document), where, what,
 * and the quantity and cost before and after; the essentials fit 1440 px, the product details follow.
 * Its filters are the entity's own (product-stock-log.json, views.list.query).
 */
export const MOVEMENT_SCREEN = {
  name: 'stock-product-log',
  base: '/stock/product/log',
  exportKey: PERMISSION.stock.productLog.export,
  columns: [
    { key: 'createTime', title: term('变动时间'), width: 152 },
    { key: 'bizTypeName', title: term('业务类型'), width: 96 },
    { key: 'bizCode', title: term('业务单据号'), width: 160, opensDocument: true },
    { key: 'scName', title: term('仓库'), width: 100 },
    { key: 'productCode', title: term('商品编号'), width: 100 },
    { key: 'productName', title: term('商品名称'), width: 130 },
    { key: 'stockNum', title: term('变动数量'), width: 80, numeric: true },
    { key: 'curStockNum', title: term('现库存数量'), width: 90, numeric: true },
    { key: 'curTaxPrice', title: term('现含税成本价'), width: 104, numeric: true },
    { key: 'taxAmount', title: term('变动含税金额'), width: 104, numeric: true },
    { key: 'oriStockNum', title: term('原库存数量'), width: 90, numeric: true },
    { key: 'oriTaxPrice', title: term('原含税成本价'), width: 110, numeric: true },
    { key: 'skuCode', title: term('SKU编号'), width: 110 },
    { key: 'categoryName', title: term('类目'), width: 110 },
    { key: 'brandName', title: term('品牌'), width: 110 },
    { key: 'remark', title: term('备注'), width: 160 },
  ] satisfies LedgerColumn[],
}

/** 商品批次库存 (`/stock/lot/query`): one lot per inbound movement, its number the document that brought it in. */
export const LOT_SCREEN = {
  name: 'stock-lot',
  base: '/stock/lot',
  exportKey: PERMISSION.stock.lot.export,
  params: STOCK_LOT_PARAMS,
  columns: [
    { key: 'lotCode', title: term('批次号'), width: 160, opensDocument: true },
    { key: 'createTime', title: term('入库时间'), width: 150 },
    { key: 'bizTypeName', title: term('业务类型'), width: 96 },
    { key: 'scName', title: term('仓库'), width: 100 },
    { key: 'productCode', title: term('商品编号'), width: 100 },
    { key: 'productName', title: term('商品名称'), width: 130 },
    { key: 'stockNum', title: term('入库数量'), width: 90, numeric: true },
    { key: 'taxPrice', title: term('含税单价'), width: 100, numeric: true },
    { key: 'taxAmount', title: term('含税金额'), width: 100, numeric: true },
    { key: 'skuCode', title: term('SKU编号'), width: 110 },
    { key: 'categoryName', title: term('类目'), width: 110 },
    { key: 'brandName', title: term('品牌'), width: 110 },
  ] satisfies LedgerColumn[],
}
