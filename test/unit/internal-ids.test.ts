import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EntityFile } from '../../src/shared/generated/entity.js'
import type { EnumsFile } from '../../src/shared/generated/enums.js'
import { buildEntityModel, type EntityModel } from '../../src/shared/metadata/entity-model.js'
import { EnumCatalog } from '../../src/shared/metadata/enum-catalog.js'
import { searchItems } from '../../src/client/runtime/query-params.js'
import { entityColumns } from '../../src/client/runtime/list-columns.js'
import { pickerSource } from '../../src/client/runtime/picker/picker-source.js'
import { lineColumnModels } from '../../src/client/runtime/document/line-columns.js'
import { documentLinesFile, type DocumentSection } from '../../src/shared/metadata/document-model.js'
import { bizDocumentPath, bizEntityName } from '../../src/client/features/stock-ledger/biz-document.js'
import type { MenuEntry } from '../../src/client/app/menus.js'

const schemas = path.resolve(import.meta.dirname, '../../schemas')
const files: EntityFile[] = ['entities', 'documents'].flatMap((dir) =>
  readdirSync(path.join(schemas, dir))
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(schemas, dir, f), 'utf8')) as EntityFile),
)
const models = new Map<string, EntityModel>(files.map((f) => [f.name, buildEntityModel(f)]))
const enums = new EnumCatalog(JSON.parse(readFileSync(path.join(schemas, 'enums.json'), 'utf8')) as EnumsFile)
const lookup = (name: string) => models.get(name)
const model = (name: string) => models.get(name)!

/** Every declared field, line fields of documents included, with where it is. */
function allFields() {
  const out: { where: string; name: string; label: string; type: string; internal?: boolean }[] = []
  for (const f of files) {
    for (const [name, field] of Object.entries(f.fields)) out.push({ where: f.name, name, ...field })
    for (const [name, field] of Object.entries(f.document?.lines?.fields ?? {})) out.push({ where: `${f.name} lines`, name, ...field })
  }
  return out
}

describe('internal ids are never asked for nor shown', () => {
  it('every id-valued field that is no ref (labelled …ID) is flagged internal', () => {
    const unflagged = allFields().filter((f) => f.type !== 'ref' && /ID$/i.test(f.label) && !f.internal)
    expect(unflagged.map((f) => `${f.where}.${f.name} ${f.label}`)).toEqual([])
  })

  it('the order list filters its creator with the user picker, not an id box', () => {
    const order = model('purchaseOrder')
    const items = searchItems(order, order.file.views!.list!.query!, enums, lookup, 'list')
    const creator = items.find((i) => i.key === 'createById')!
    expect(creator).toMatchObject({ label: '创建人', control: 'picker', pickerKind: 'user' })
    expect(items.map((i) => i.label).filter((l) => /ID$/i.test(l))).toEqual([])
  })

  it('no search form of any list asks for an id', () => {
    for (const e of models.values()) {
      const query = e.file.views?.list?.query
      if (!query) continue
      const asked = searchItems(e, query, enums, lookup, 'list').filter((i) => i.control === 'text' && /ID$/i.test(i.label))
      expect(asked.map((i) => `${e.name}.${i.key}`)).toEqual([])
    }
  })

  it('list and line grids leave internal columns out (组合商品原始明细ID, an address owner id)', () => {
    const address = model('address')
    const titles = entityColumns(address, address.file.views!.list!.columns!, false).map((c) => address.byName.get(c.key)!.label)
    expect(titles).not.toContain('实体ID')
    expect(titles).toContain('地址类型')
    for (const doc of ['saleOutSheet', 'retailOutSheet']) {
      const file = model(doc).file
      const columns = lineColumnModels(buildEntityModel(documentLinesFile(file)), file.document as DocumentSection, { readOnly: true })
      expect(columns.map((c) => c.title)).not.toContain('组合商品原始明细ID')
      expect(columns.length).toBeGreaterThan(3)
    }
  })
})

describe('pickers show no record id', () => {
  it('no picker has an id column, even one declaring it (the customer picker: a 32-hex key)', () => {
    const pickers = [...models.values()].filter((e) => e.file.views?.picker)
    expect(pickers.length).toBeGreaterThan(40)
    expect(model('customer').file.views!.picker!.columns).toContain('id')
    for (const e of pickers) {
      const keys = pickerSource(e).columns.map((c) => (typeof c === 'string' ? c : c.key))
      expect(keys, e.name).not.toContain('id')
      expect(keys.length, e.name).toBeGreaterThan(0)
    }
    expect(pickerSource(model('customer')).columns.map((c) => (typeof c === 'string' ? c : c.key))).toEqual(['code', 'name', 'available'])
  })
})

describe('a stock ledger row opens its document', () => {
  it('each business type names an entity, and a document posting stock names its own type', () => {
    for (const item of enums.items('STOCK_BIZ_TYPE')) expect(models.has(item.entity ?? ''), `${item.key} → ${item.entity}`).toBe(true)
    const posting = files.filter((f) => f.document?.stock)
    expect(posting.length).toBeGreaterThan(5)
    for (const f of posting) expect(bizEntityName(enums, f.document!.stock!.bizType)).toBe(f.name)
    expect(bizEntityName(enums, 9)).toBe('stockCostAdjustSheet')
    expect(bizEntityName(enums, 7)).toBe('takeStockPlan')
  })

  it('a document opens its detail page under its menu; a take-stock plan its page with ?id=; no menu, no link', () => {
    const entry = (path: string, permission: string): MenuEntry => ({
      menu: { id: path, path, permission, component: null } as never,
      titles: [],
      ids: [],
      icon: null,
      authorities: [],
    })
    const entries = [entry('/stock/stock-adjust', 'stock:adjust:query'), entry('/stock/take/plan', 'stock:take:plan:query'), entry('/purchase/receive', 'purchase:receive:query')]
    expect(bizDocumentPath(model('stockAdjustSheet'), entries, 'a1')).toBe('/stock/stock-adjust/detail/a1')
    expect(bizDocumentPath(model('takeStockPlan'), entries, 'p1')).toBe('/stock/take/plan?id=p1')
    expect(bizDocumentPath(model('stockCostAdjustSheet'), entries, 'c1')).toBeUndefined()
    expect(bizDocumentPath(model('stockAdjustSheet'), entries, '')).toBeUndefined()
  })
})
