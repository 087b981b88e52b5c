import Decimal from 'decimal.js'
import type { FastifyInstance } from 'fastify'
import type { Db } from '../../db/dialect.js'
import { STOCK_LOT_PARAMS } from '../../../shared/contracts/stock-lot-query.js'
import { defineListRoute } from '../../engine/list-routes.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Services } from '../../engine/services.js'
import { countOf, pageArgs, productColumns, productJoinedBase, productJoinedConditions, selectProductColumns } from './product-join.js'
import { EXPORT_LIMIT, exportValues, sendWorkbook, type SheetColumn } from './xlsx-export.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const dec = (v: unknown, places: number) => new Decimal(String(v ?? 0)).toFixed(places)

/**
 * Two readings of tbl_product_stock_log:
 *
 * 商品库存变动记录 `GET /stock/product/log/query` and `GET|POST /stock/product/log/export`. The spec names
 * the screen (menu 3000003, keys stock:product-log:query|export) but not its calls; these are the paths
 * the ancestor (xingyun v3 ProductStockLogController) used.
 *
 * 商品批次库存 `GET /stock/lot/query` and `GET|POST /stock/lot/export` (keys stock:lot:query|export). v3 has
 * no lots (v2's ProductLot is gone and cost is one moving average per warehouse), so each inbound ledger
 * movement is shown as one 批次: lotCode = the document number that brought the goods in, its quantity,
 * unit price (value ÷ quantity, 6 places) and value, and when it was posted. Nothing is consumed per lot.
 */
export function registerStockLogRoutes(app: FastifyInstance, services: Services): void {
  const entity = services.registry.get('productStockLog')
  const logParams = entity.file.views?.list?.query ?? []
  const lotParams = STOCK_LOT_PARAMS
  const enums = services.registry.enums

  async function rows(db: Db, ctx: RequestContext, values: Record<string, unknown>, paged: boolean, lots: boolean) {
    let base = await productJoinedBase(services, db, ctx, entity, lots ? lotParams : logParams, values)
    if (lots) base = base.where('t.stock_num', '>', 0)
    const { pageIndex, pageSize } = paged ? pageArgs(values) : { pageIndex: 1, pageSize: EXPORT_LIMIT }
    const totalCount = paged ? await countOf(base) : 0
    const found = await selectProductColumns(base)
      .select([
        't.ori_tax_price',
        't.cur_tax_price',
        't.ori_stock_num',
        't.cur_stock_num',
        't.stock_num',
        't.tax_amount',
        't.biz_id',
        't.biz_code',
        't.biz_detail_id',
        't.biz_type',
        't.remark',
        't.create_by',
        't.create_time',
      ])
      .orderBy('t.create_time', 'desc')
      .orderBy('t.id', 'desc')
      .limit(pageSize)
      .offset((pageIndex - 1) * pageSize)
      .execute()
    const datas = found.map((r) => {
      const bizType = Number(r.biz_type)
      const common = { ...productColumns(r), bizType, bizTypeName: enums.label('STOCK_BIZ_TYPE', bizType) ?? null, createTime: r.create_time }
      const num = Number(r.stock_num ?? 0)
      if (lots)
        return {
          ...common,
          lotCode: r.biz_code,
          bizId: r.biz_id,
          stockNum: num,
          taxPrice: new Decimal(String(r.tax_amount ?? 0)).dividedBy(num).toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed(6),
          taxAmount: dec(r.tax_amount, 2),
        }
      return {
        ...common,
        oriTaxPrice: dec(r.ori_tax_price, 6),
        curTaxPrice: dec(r.cur_tax_price, 6),
        oriStockNum: Number(r.ori_stock_num ?? 0),
        curStockNum: Number(r.cur_stock_num ?? 0),
        stockNum: num,
        taxAmount: dec(r.tax_amount, 2),
        bizId: r.biz_id,
        bizCode: r.biz_code,
        bizDetailId: r.biz_detail_id ?? null,
        remark: r.remark ?? null,
        createBy: r.create_by ?? null,
      }
    })
    return { pageIndex, pageSize, totalCount: paged ? totalCount : datas.length, datas }
  }

  const head: SheetColumn[] = [
    { header: '仓库编号', key: 'scCode' },
    { header: '仓库名称', key: 'scName' },
    { header: '商品编号', key: 'productCode' },
    { header: '商品名称', key: 'productName' },
    { header: 'SKU', key: 'skuCode' },
    { header: '类目', key: 'categoryName' },
    { header: '品牌', key: 'brandName' },
  ]
  const screens = [
    {
      base: '/stock/product/log',
      keys: [PERMISSION.stock.productLog.query, PERMISSION.stock.productLog.export],
      title: entity.label,
      lots: false,
      columns: [
        ...head,
        { header: '业务类型', key: 'bizTypeName' },
        { header: '业务单据号', key: 'bizCode' },
        { header: '原库存数量', key: 'oriStockNum' },
        { header: '变动数量', key: 'stockNum' },
        { header: '现库存数量', key: 'curStockNum' },
        { header: '原含税成本价', key: 'oriTaxPrice' },
        { header: '现含税成本价', key: 'curTaxPrice' },
        { header: '变动含税金额', key: 'taxAmount' },
        { header: '备注', key: 'remark' },
        { header: '操作人', key: 'createBy' },
        { header: '变动时间', key: 'createTime' },
      ],
    },
    {
      base: '/stock/lot',
      keys: [PERMISSION.stock.lot.query, PERMISSION.stock.lot.export],
      title: '商品批次库存',
      lots: true,
      columns: [
        { header: '批次号', key: 'lotCode' },
        ...head,
        { header: '业务类型', key: 'bizTypeName' },
        { header: '入库数量', key: 'stockNum' },
        { header: '含税单价', key: 'taxPrice' },
        { header: '含税金额', key: 'taxAmount' },
        { header: '入库时间', key: 'createTime' },
      ],
    },
  ]
  for (const screen of screens) {
    const conditions = productJoinedConditions(services, entity, screen.lots ? lotParams : logParams)
    defineListRoute(app, services, {
      method: 'GET',
      url: `${screen.base}/query`,
      conditions,
      access: [screen.keys[0]],
      handler: async ({ ctx, query }) => rows(ctx.db, ctx, query, true, screen.lots),
    })
    for (const method of ['GET', 'POST'] as const)
      defineListRoute(app, services, {
        method,
        url: `${screen.base}/export`,
        conditions,
        access: [screen.keys[1]],
        handler: async ({ ctx, query, body, reply }) => {
          const page = await rows(ctx.db, ctx, exportValues(query, body), false, screen.lots)
          return sendWorkbook(reply, screen.title, screen.columns, page.datas)
        },
      })
  }
}
