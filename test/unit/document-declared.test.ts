import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EntityFile } from '../../src/shared/generated/entity.js'
import { buildEntityModel } from '../../src/shared/metadata/entity-model.js'
import { documentHeaderFile } from '../../src/shared/metadata/document-model.js'
import {
  hasAgreedPayments,
  hiddenLineFields,
  lineVisibilityField,
  paymentDateRuleOf,
  productSearchUrl,
  rowActionsFor,
  warehouseFieldOf,
} from '../../src/client/runtime/document/document-features.js'
import { sourceLinkOf } from '../../src/client/runtime/document/source-links.js'

/**
 * The browser's document readers take every fact from the entity files (as the meta bundle delivers
 * them): these are the facts the screens used to keep by hand, derived now from `document`.
 */
const schemas = path.resolve(import.meta.dirname, '../../schemas')
const read = (dir: string) =>
  readdirSync(path.join(schemas, dir))
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(schemas, dir, f), 'utf8')) as EntityFile)
// As /meta/bundle: documents as their header files (engine columns added), plus the plain entities.
const bundle = new Map<string, EntityFile>([...read('entities'), ...read('documents').map(documentHeaderFile)].map((f) => [f.name, f]))
const documents = read('documents').map((f) => bundle.get(f.name)!)
const file = (name: string) => bundle.get(name)!
const fieldsOf = (f: EntityFile) => new Set(buildEntityModel(f).fields.map((x) => x.name))
const linkOf = (name: string) => sourceLinkOf(file(name), fieldsOf(file(name)), (n) => bundle.get(n))

describe('document facts come from the document files', () => {
  it('source links: header field, loader, configuration base and flag, copied and locked fields', () => {
    const links = Object.fromEntries(documents.map((d) => [d.name, linkOf(d.name)]).filter(([, l]) => l))
    expect(links).toEqual({
      receiveSheet: {
        headerField: 'purchaseOrderId',
        load: '/purchase/order/receive',
        config: { base: '/purchase/config', requireFlag: 'receiveRequirePurchase' },
        copy: ['scId', 'supplierId', 'purchaserId'],
        lock: ['scId', 'supplierId'],
        startAtZero: false,
      },
      purchaseReturn: {
        headerField: 'receiveSheetId',
        load: '/purchase/receive/sheet/return',
        config: { base: '/purchase/config', requireFlag: 'purchaseReturnRequireReceive' },
        copy: ['scId', 'supplierId', 'purchaserId'],
        lock: ['scId', 'supplierId'],
        startAtZero: true,
      },
      saleOutSheet: {
        headerField: 'saleOrderId',
        load: '/sale/order/out',
        config: { base: '/sale/config', requireFlag: 'outStockRequireSale' },
        copy: ['scId', 'customerId', 'salerId'],
        lock: ['scId', 'customerId'],
        startAtZero: false,
      },
      saleReturn: {
        headerField: 'outSheetId',
        load: '/sale/out/sheet/return',
        config: { base: '/sale/config', requireFlag: 'saleReturnRequireOutStock' },
        copy: ['scId', 'customerId', 'salerId'],
        lock: ['scId', 'customerId'],
        startAtZero: true,
      },
      retailReturn: {
        headerField: 'outSheetId',
        load: '/retail/out/sheet/return',
        config: { base: '/retail/config', requireFlag: 'retailReturnRequireOutStock' },
        copy: ['scId', 'memberId', 'salerId'],
        lock: ['scId', 'memberId'],
        startAtZero: true,
      },
    })
  })

  it('the browser locks exactly what the server copies, and loads what the server serves', () => {
    for (const d of documents) {
      const follows = d.document!.follows
      if (!follows) continue
      const link = linkOf(d.name)!
      expect(link.lock).toEqual(follows.copyHeader)
      expect(link.load).toBe(follows.loader)
      expect(file(follows.config.entity).fields).toHaveProperty(follows.config.required)
      expect(file(follows.config.entity).fields).toHaveProperty(follows.config.multiple)
    }
  })

  it('agreed payments, product searches, search warehouses, payment dates', () => {
    const by = <T>(f: (d: EntityFile) => T) => Object.fromEntries(documents.map((d) => [d.name, f(d)]).filter(([, v]) => v !== undefined && v !== false))
    expect(Object.keys(by(hasAgreedPayments)).sort()).toEqual(['purchaseOrder', 'saleOrder'])
    expect(by(productSearchUrl)).toEqual({
      purchaseOrder: '/purchase/order/product/search',
      receiveSheet: '/purchase/order/product/search',
      purchaseReturn: '/purchase/order/product/search',
      retailOutSheet: '/retail/out/sheet/product/search',
      retailReturn: '/retail/out/sheet/product/search',
      stockCostAdjustSheet: '/stock/adjust/cost/product/search',
      scTransferOrder: '/stock/transfer/sc/product/search',
    })
    expect(by((d) => (warehouseFieldOf(d) === 'scId' ? undefined : warehouseFieldOf(d)))).toEqual({ scTransferOrder: 'sourceScId' })
    expect(by(paymentDateRuleOf)).toEqual({
      receiveSheet: { path: '/purchase/receive/sheet/paymentdate', party: 'supplierId' },
      purchaseReturn: { path: '/purchase/receive/sheet/paymentdate', party: 'supplierId' },
      retailOutSheet: { path: '/retail/out/sheet/paymentdate', party: 'memberId' },
    })
  })

  it('row actions with their keys, confirmations and calls', () => {
    expect(rowActionsFor(file('purchaseOrder'), { status: 3 })).toEqual([
      {
        label: '取消审核',
        permission: 'purchase:order:cancel-approve',
        statuses: [3],
        confirm: '确定取消审核该采购订单？',
        call: { method: 'patch', path: '/purchase/order/approve/cancel' },
        done: '取消审核成功！',
      },
      {
        label: '提前结束',
        permission: 'purchase:order:end-early',
        statuses: [3, 9],
        confirm: '确定提前结束该采购订单？提前结束后将不能再收货。',
        call: { method: 'get', path: '/purchase/order/endEarly' },
        done: '提前结束成功！',
      },
    ])
    expect(rowActionsFor(file('takeStockSheet'), { status: 3 })).toEqual([
      {
        label: '取消审核',
        permission: 'stock:take:sheet:cancel-approve',
        statuses: [3],
        confirm: '确定取消审核该库存盘点单？',
        call: { method: 'patch', path: '/stock/take/sheet/approve/cancel' },
        done: '取消审核成功！',
      },
    ])
    expect(rowActionsFor(file('scTransferOrder'), { status: 3 })).toEqual([{ label: '收货', permission: 'stock:sc-transfer:receive', statuses: [3, 9], page: 'receive' }])
    const withActions = documents.filter((d) => d.document!.rowActions?.length).map((d) => d.name)
    expect(rowActionsFor(file('receiveSheet'), { status: 3 })).toEqual([{ label: '登记付款', permission: 'purchase:receive:add-payments', statuses: [3], page: 'addPayments' }])
    expect(rowActionsFor(file('receiveSheet'), { status: 0 })).toEqual([])
    // A logistics sheet's 发货 is a dialog its feature registers under the action's key.
    expect(rowActionsFor(file('logisticsSheet'), { status: 0 })).toEqual([{ key: 'delivery', label: '发货', permission: 'logistics:sheet:delivery', statuses: [0] }])
    expect(rowActionsFor(file('logisticsSheet'), { status: 3 })).toEqual([])
    // An approved check sheet's 结算 opens the settle sheet made from it (its `madeFrom`).
    const settle = { label: '结算', permission: 'settle:sheet:add', statuses: [3], where: { settleStatus: [0, 1] }, make: 'settleSheet' }
    expect(rowActionsFor(file('settleCheckSheet'), { status: 3, settleStatus: 0 })).toEqual([settle])
    expect(rowActionsFor(file('settleCheckSheet'), { status: 3, settleStatus: 1 })).toEqual([settle])
    // Settled in full (已结算): nothing left to settle.
    expect(rowActionsFor(file('settleCheckSheet'), { status: 3, settleStatus: 3 })).toEqual([])
    expect(rowActionsFor(file('customerSettleCheckSheet'), { status: 0 })).toEqual([])
    expect(withActions.sort()).toEqual(['customerSettleCheckSheet', 'logisticsSheet', 'purchaseOrder', 'receiveSheet', 'scTransferOrder', 'settleCheckSheet', 'takeStockSheet'])
  })

  it('line visibility by a header value', () => {
    const pre = file('preTakeStockSheet')
    expect(lineVisibilityField(pre)).toBe('takeStatus')
    expect([...hiddenLineFields(pre, { takeStatus: 0 })].sort()).toEqual(['randNum', 'secondNum'])
    expect([...hiddenLineFields(pre, { takeStatus: '2' })].sort()).toEqual(['firstNum', 'secondNum'])
    expect(documents.filter((d) => lineVisibilityField(d)).map((d) => d.name)).toEqual(['preTakeStockSheet'])
  })

  it('a new document file needs no browser change: the readers take what it declares', () => {
    const made: EntityFile = {
      ...file('saleReturn'),
      name: 'madeUp',
      document: {
        ...file('saleReturn').document!,
        productSearch: '/made/up/product/search',
        searchWarehouseField: 'fromScId',
        paymentDate: { path: '/made/up/paymentdate', party: 'customerId' },
        rowActions: [{ label: '作废', permission: 'made:up:void', statuses: [3], confirm: '确定？', call: { method: 'patch', path: '/made/up/void' } }],
        lineVisibility: { field: 'kind', show: { a: 'aNum' } },
      },
    }
    expect(productSearchUrl(made)).toBe('/made/up/product/search')
    expect(warehouseFieldOf(made)).toBe('fromScId')
    expect(paymentDateRuleOf(made)?.path).toBe('/made/up/paymentdate')
    expect(rowActionsFor(made, { status: 3 }).map((a) => a.label)).toEqual(['作废'])
    expect([...hiddenLineFields(made, { kind: 'b' })]).toEqual(['aNum'])
    expect(sourceLinkOf(made, new Set(['outSheetId']), () => undefined)).toMatchObject({ headerField: 'outSheetId', load: '/sale/out/sheet/return', config: undefined })
  })
})
