import { STOCK_LOT_PARAMS } from '../../shared/contracts/stock-lot-query.js'
import type { ListSource } from '../runtime/list-source.js'
import { term } from '../i18n/term.js'
import { PERMISSION } from '../../shared/generated/permission-keys.js'

/**
 * 商品库存变动记录 (`/stock/product/log/query`): when, why (business type and its document), where, what,
 * and the quantity and cost before and after; the essentials fit 1440 px, the product details follow.
 * Its filters are the entity's own (product-stock-log.json, views.list.query). `bizCode` opens the document.
 */
export const MOVEMENT_VIEW: ListSource = {
  name: 'stock-ledger',
  path: '/stock/product/log/query',
  entity: 'productStockLog',
  size: 'small',
  export: { path: '/stock/product/log/export', method: 'get', permission: PERMISSION.stock.productLog.export },
  columns: [
    { key: 'createTime', title: term('变动时间'), width: 152 },
    { key: 'bizTypeName', title: term('业务类型'), width: 96 },
    { key: 'bizCode', title: term('业务单据号'), width: 160, ellipsis: false },
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
  ],
}

/** 商品批次库存 (`/stock/lot/query`): one lot per inbound movement, its number (`lotCode`) the document that brought it in. */
export const LOT_VIEW: ListSource = {
  name: 'stock-ledger',
  path: '/stock/lot/query',
  entity: 'productStockLog',
  query: STOCK_LOT_PARAMS,
  size: 'small',
  export: { path: '/stock/lot/export', method: 'get', permission: PERMISSION.stock.lot.export },
  columns: [
    { key: 'lotCode', title: term('批次号'), width: 160, ellipsis: false },
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
  ],
}
