import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EntityFile } from '../../src/shared/generated/entity.js'
import { buildEntityModel } from '../../src/shared/metadata/entity-model.js'
import {
  hiddenLineFields,
  paymentDateRuleOf,
  productSearchUrl,
  rowActionsFor,
  warehouseFieldOf,
} from '../../src/client/runtime/document/document-features.js'
import { giftLine, sourceLinkOf } from '../../src/client/runtime/document/source-links.js'
import { lineFromPlan, mergePreCounts } from '../../src/client/runtime/document/take-sheet-lines.js'
import { receiptProducts, remainingOf } from '../../src/client/runtime/document/transfer-receive.js'
import { diffOf, expectedTakeNum, handleBody } from '../../src/client/features/take-stock/plan-lines.js'
import { singletonOfMenu } from '../../src/client/runtime/singleton/singleton-menus.js'

const documentFiles = new Map(
  readdirSync(path.resolve(import.meta.dirname, '../../schemas/documents'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../schemas/documents', f), 'utf8')) as EntityFile)
    .map((f) => [f.name, f] as const),
)
const doc = (name: string) => documentFiles.get(name)!

describe('document features by document', () => {
  it('product search where the server has one', () => {
    expect(productSearchUrl(doc('receiveSheet'))).toBe('/purchase/order/product/search')
    expect(productSearchUrl(doc('retailReturn'))).toBe('/retail/out/sheet/product/search')
    expect(productSearchUrl(doc('stockCostAdjustSheet'))).toBe('/stock/adjust/cost/product/search')
    expect(productSearchUrl(doc('scTransferOrder'))).toBe('/stock/transfer/sc/product/search')
    expect(productSearchUrl(doc('stockAdjustSheet'))).toBeUndefined()
    expect(productSearchUrl(doc('saleOrder'))).toBeUndefined()
  })

  it('a transfer searches stock in its source warehouse; payment dates by party', () => {
    expect(warehouseFieldOf(doc('scTransferOrder'))).toBe('sourceScId')
    expect(warehouseFieldOf(doc('stockAdjustSheet'))).toBe('scId')
    expect(paymentDateRuleOf(doc('purchaseReturn'))).toEqual({ path: '/purchase/receive/sheet/paymentdate', party: 'supplierId' })
    expect(paymentDateRuleOf(doc('retailOutSheet'))?.party).toBe('memberId')
    expect(paymentDateRuleOf(doc('purchaseOrder'))).toBeUndefined()
  })

  it('row actions only in their statuses', () => {
    expect(rowActionsFor(doc('purchaseOrder'), { status: 3 }).map((a) => a.label)).toEqual(['取消审核', '提前结束'])
    expect(rowActionsFor(doc('purchaseOrder'), { status: 9 }).map((a) => a.label)).toEqual(['提前结束'])
    expect(rowActionsFor(doc('purchaseOrder'), { status: 0 })).toEqual([])
    expect(rowActionsFor(doc('takeStockSheet'), { status: 3 }).map((a) => [a.label, a.permission])).toEqual([['取消审核', 'stock:take:sheet:cancel-approve']])
    expect(rowActionsFor(doc('scTransferOrder'), { status: 9 }).map((a) => a.page)).toEqual(['receive'])
    expect(rowActionsFor(doc('scTransferOrder'), { status: 12 })).toEqual([])
  })

  it('a pre-take sheet shows the count of its take status only', () => {
    expect([...hiddenLineFields(doc('preTakeStockSheet'), { takeStatus: 1 })].sort()).toEqual(['firstNum', 'randNum'])
    expect([...hiddenLineFields(doc('preTakeStockSheet'), { takeStatus: undefined })].sort()).toEqual(['firstNum', 'randNum', 'secondNum'])
    expect(hiddenLineFields(doc('stockAdjustSheet'), { takeStatus: 1 }).size).toBe(0)
  })
})

describe('linked documents', () => {
  it('lock what the server copies from the source; hand-added lines are gifts', () => {
    const fields = new Set(['purchaseOrderId', 'saleOrderId'])
    expect(sourceLinkOf(doc('receiveSheet'), fields, () => undefined)?.lock).toEqual(['scId', 'supplierId'])
    expect(sourceLinkOf(doc('saleOutSheet'), fields, () => undefined)?.lock).toEqual(['scId', 'customerId'])
    expect(giftLine({ productId: 'p', taxPrice: '3.00' }, 'taxPrice')).toEqual({ productId: 'p', taxPrice: '0' })
    expect(giftLine({ productId: 'p' }, undefined)).toEqual({ productId: 'p' })
  })
})

describe('transfer receipt', () => {
  const lines = [
    { productId: 'a', transferNum: 5, receiveNum: 2 },
    { productId: 'b', transferNum: 2, receiveNum: 0 },
  ]
  it('sends the typed positive quantities and refuses more than is open', () => {
    expect(remainingOf(lines[0])).toBe(3)
    expect(receiptProducts(lines, { a: 3, b: 0 })).toEqual({ products: [{ productId: 'a', receiveNum: 3 }] })
    expect(receiptProducts(lines, { a: 4 })).toEqual({ error: '第1行商品本次收货数量不能大于待收货数量3！' })
    expect(receiptProducts(lines, { b: 1.5 })).toEqual({ error: '第2行商品本次收货数量必须为不小于0的整数！' })
    expect(receiptProducts(lines, {})).toEqual({ error: '请输入本次收货数量！' })
  })
})

describe('take sheet lines', () => {
  it('plan lines become uncounted sheet lines with the snapshot; pre-take counts fill or add lines', () => {
    const fromPlan = lineFromPlan({ id: 'd1', planId: 'x', productId: 'a', productCode: 'A', stockNum: 7, oriTakeNum: 3, takeNum: null, totalInNum: 0, totalOutNum: 0, orderNo: 1, description: '' })
    expect(fromPlan).toEqual({ productId: 'a', productCode: 'A', stockNum: 7, takeNum: undefined })
    const rows = mergePreCounts<Record<string, unknown>>([{ ...fromPlan, __key: '1' }], [{ productId: 'a', takeNum: 4 }, { productId: 'b', takeNum: 2 }, { productId: 'c', takeNum: 1 }], [{ productId: 'b', productCode: 'B' }], (p) => ({
      __key: 'n',
      productId: p.productId,
      productCode: p.productCode,
    }))
    expect(rows.map((r) => [r.productId, r.takeNum])).toEqual([
      ['a', 4],
      ['b', 2],
    ])
  })
})

describe('stock-taking plan diff', () => {
  const line = { productId: 'a', stockNum: 10, oriTakeNum: 6, takeNum: null, totalInNum: 0, totalOutNum: 3 }
  it('the count the server settles and the difference', () => {
    expect(expectedTakeNum(line, { autoChangeStock: true })).toBe(9)
    expect(expectedTakeNum(line, { autoChangeStock: false })).toBe(6)
    expect(expectedTakeNum({ ...line, takeNum: 11 }, { autoChangeStock: true })).toBe(11)
    expect(diffOf(9, line)).toBe(-1)
  })
  it('echoes the flags and sends typed counts only when they may change', () => {
    const flags = { allowChangeNum: true, autoChangeStock: true }
    expect(handleBody('p', flags, [line], { a: { takeNum: 12, description: '多' } }, '处理')).toEqual({
      id: 'p',
      allowChangeNum: true,
      autoChangeStock: true,
      description: '处理',
      products: [{ productId: 'a', takeNum: 12, description: '多' }],
    })
    expect(handleBody('p', { ...flags, allowChangeNum: false }, [line], { a: { takeNum: 12 } }, '').products[0].takeNum).toBe(9)
  })
})

describe('settings menus', () => {
  const file = (name: string) =>
    buildEntityModel(JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../schemas/entities', name), 'utf8')) as EntityFile)
  const entities = [file('purchase-config.json'), file('take-stock-config.json')]
  it('finds the singleton of a 参数设置 menu by its modify key', () => {
    expect(singletonOfMenu(entities, { permission: 'stock:take:config:modify', component: '/sc/stock/take/config/index' })?.name).toBe('takeStockConfig')
    expect(singletonOfMenu(entities, { permission: 'purchase:config:modify' })?.name).toBe('purchaseConfig')
    expect(singletonOfMenu(entities, { permission: 'purchase:order:modify' })).toBeUndefined()
  })
})
