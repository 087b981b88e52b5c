import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EntityFile } from '../../src/shared/generated/entity.js'
import { buildEntityModel } from '../../src/shared/metadata/entity-model.js'
import { documentHeaderFile, documentLinesFile, type DocumentSection } from '../../src/shared/metadata/document-model.js'
import { lineColumnModels, sourceLinkField } from '../../src/client/runtime/document/line-columns.js'
import { documentOfMenu } from '../../src/client/runtime/document/document-menus.js'
import { documentPath, parseDocumentRoute } from '../../src/client/runtime/document/document-routes.js'
import { lineFromSource, linesToSend, sourceLinkOf } from '../../src/client/runtime/document/source-links.js'

const documents = path.resolve(import.meta.dirname, '../../schemas/documents')
function load(file: string) {
  const json = JSON.parse(readFileSync(path.join(documents, file), 'utf8')) as EntityFile
  return { header: buildEntityModel(documentHeaderFile(json)), lines: buildEntityModel(documentLinesFile(json)), section: json.document as DocumentSection }
}
const order = load('purchase-order.json')
const receive = load('receive-sheet.json')
const ret = load('purchase-return.json')

describe('line table columns from the line entity', () => {
  it('product columns, then the writable line fields; the gift flag shown, counters and links hidden while editing', () => {
    const cols = lineColumnModels(receive.lines, receive.section, { readOnly: false })
    expect(cols.map((c) => c.title)).toEqual(['商品编号', '商品名称', 'SKU编号', '单位', '规格', '收货数量', '采购价', '是否赠品', '税率（%）', '备注'])
    expect(cols.filter((c) => c.editable).map((c) => c.key)).toEqual(['orderNum', 'taxPrice', 'taxRate', 'description'])
    expect(cols.find((c) => c.key === 'taxRate')?.kind).toBe('enum')
    expect(cols.find((c) => c.key === 'taxPrice')?.kind).toBe('decimal')
    expect(cols.find((c) => c.key === 'isGift')?.kind).toBe('flag')
  })

  it('read-only pages also show the counters the engine keeps, and nothing is editable', () => {
    const cols = lineColumnModels(order.lines, order.section, { readOnly: true })
    expect(cols.map((c) => c.key)).toContain('receiveNum')
    expect(cols.find((c) => c.key === 'receiveNum')?.kind).toBe('number')
    expect(cols.some((c) => c.editable)).toBe(false)
    expect(cols.map((c) => c.key)).not.toContain('orderId')
    expect(cols.map((c) => c.key)).not.toContain('orderNo')
  })

  it('check and settle sheet lines: what the server answers first, each once; only the amounts and remark typed', () => {
    const check = load('settle-check-sheet.json')
    for (const readOnly of [false, true]) {
      const cols = lineColumnModels(check.lines, check.section, { readOnly })
      expect(cols.map((c) => c.key)).toEqual(['bizCode', 'bizType', 'calcType', 'approveTime', 'totalAmount', 'payAmount', 'description'])
      expect(cols.filter((c) => c.editable).map((c) => c.key)).toEqual(readOnly ? [] : ['payAmount', 'description'])
    }
    const settle = load('customer-settle-sheet.json')
    expect(lineColumnModels(settle.lines, settle.section, { readOnly: false }).filter((c) => c.editable).map((c) => c.key)).toEqual(['payAmount', 'discountAmount', 'description'])
    expect(documentOfMenu([check.header, settle.header], { component: '/settle/check/index', permission: 'settle:check-sheet:query' })?.name).toBe('settleCheckSheet')
    expect(documentOfMenu([check.header, settle.header], { component: '/customer/settle/sheet/index', permission: 'customer-settle:sheet:query' })?.name).toBe('customerSettleSheet')
  })

  it('the source link field comes from the reservation', () => {
    expect(sourceLinkField(receive.section)).toBe('purchaseOrderDetailId')
    expect(sourceLinkField(ret.section)).toBe('receiveSheetDetailId')
    expect(sourceLinkField(order.section)).toBeUndefined()
  })
})

describe('menus, routes and source documents', () => {
  const docs = [order.header, receive.header, ret.header]
  it('a document menu finds its document by permission or by entity component', () => {
    expect(documentOfMenu(docs, { component: '/sc/purchase/order/index', permission: 'purchase:order:query' })?.name).toBe('purchaseOrder')
    expect(documentOfMenu(docs, { component: '/sc/purchase/receive/index', permission: 'purchase:receive:query' })?.name).toBe('receiveSheet')
    expect(documentOfMenu(docs, { component: 'entity:purchaseReturn', permission: null })?.name).toBe('purchaseReturn')
    expect(documentOfMenu(docs, { component: '/sc/purchase/config/index', permission: 'purchase:config:modify' })).toBeUndefined()
    expect(documentOfMenu(docs, { component: '/sc/sale/order/index', permission: 'sale:order:query' })).toBeUndefined()
  })

  it('pages below the list menu', () => {
    expect(parseDocumentRoute('add')).toEqual({ mode: 'add', pattern: 'add', require: undefined })
    expect(parseDocumentRoute('modify/42')).toMatchObject({ mode: 'modify', id: '42', pattern: 'modify/:id' })
    expect(parseDocumentRoute('require/add')).toMatchObject({ mode: 'add', require: true, pattern: 'require/add' })
    expect(parseDocumentRoute('unrequire/modify/7')).toMatchObject({ mode: 'modify', id: '7', require: false })
    expect(parseDocumentRoute('approve/9')).toMatchObject({ mode: 'approve', id: '9' })
    expect(parseDocumentRoute('receive/9')).toMatchObject({ mode: 'receive', id: '9' })
    for (const bad of ['', 'modify', 'add/1', 'print/1', 'approve/1/2']) expect(parseDocumentRoute(bad)).toBeUndefined()
    expect(documentPath('/purchase/order/', 'modify', '5')).toBe('/purchase/order/modify/5')
  })

  it('a source line becomes a line with the remaining quantity and the link', () => {
    const link = sourceLinkOf(receive.header.file, new Set(receive.header.fields.map((f) => f.name)), () => undefined)
    expect(link?.headerField).toBe('purchaseOrderId')
    expect(sourceLinkOf(receive.header.file, new Set(['scId']), () => undefined)).toBeUndefined()
    const line = lineFromSource({ id: 'L1', orderNo: 1, productId: 'P', orderNum: 10, receiveNum: 4, remainNum: 6, taxPrice: '2.50' }, 'purchaseOrderDetailId', 'orderNum')
    expect(line).toMatchObject({ productId: 'P', orderNum: 6, taxPrice: '2.50', purchaseOrderDetailId: 'L1' })
    expect(line).not.toHaveProperty('id')
    expect(line).not.toHaveProperty('remainNum')
    // A return starts at 0 and keeps what may still be taken back.
    const returned = lineFromSource({ id: 'L2', productId: 'P', orderNum: 10, remainNum: 6, taxPrice: '2.50' }, 'receiveSheetDetailId', 'orderNum', true)
    expect(returned).toMatchObject({ orderNum: 0, remainNum: 6, receiveSheetDetailId: 'L2' })
    expect(linesToSend([{ orderNum: 0 }, { orderNum: 2 }], 'orderNum')).toEqual([{ orderNum: 2 }])
    expect(linesToSend([{ orderNum: 0 }, { orderNum: 0 }], 'orderNum')).toHaveLength(2)
  })
})
