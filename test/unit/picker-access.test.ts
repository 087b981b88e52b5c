import { describe, expect, it } from 'vitest'
import { EntityRegistry } from '../../src/server/engine/entity-registry.js'
import { pickerAccess } from '../../src/server/engine/picker-access.js'

/** Who may call a picker, derived from schemas/ (issue 11): nothing is hand-kept, so the rules are checked on the real files. */
describe('picker access derived from the schemas', () => {
  const registry = new EntityRegistry()
  const keys = pickerAccess(registry)

  it('gives every picker the query key of the entity it picks', () => {
    for (const entity of registry.all()) {
      const picker = entity.file.views?.picker
      if (!picker || !entity.file.api) continue
      const query = entity.file.api.permissions?.query ?? `${entity.file.api.permission}:query`
      expect(keys.get(picker.kind), picker.kind).toContain(query)
    }
  })

  it('adds the add/modify keys of the documents whose header or lines choose with it', () => {
    // Customers are chosen on sale documents, suppliers on purchase documents, products on lines.
    expect(keys.get('customer')).toEqual(expect.arrayContaining(['sale:order:add', 'sale:order:modify', 'sale:out:add']))
    expect(keys.get('customer')).not.toContain('purchase:order:add')
    expect(keys.get('supplier')).toEqual(expect.arrayContaining(['purchase:order:add', 'purchase:receive:modify']))
    expect(keys.get('supplier')).not.toContain('sale:return:add')
    expect(keys.get('product')).toEqual(expect.arrayContaining(['purchase:order:add', 'stock:take:sheet:add', 'retail:out:modify']))
    // A document that follows another chooses its source with that document's picker.
    expect(keys.get('purchaseorder')).toEqual(expect.arrayContaining(['purchase:order:query', 'purchase:receive:add']))
    // The sale order links a purchase order (000 §9, the picker's type 1), so its clerk may also use the
    // supplier picker of that picker's search form.
    expect(keys.get('purchaseorder')).toEqual(expect.arrayContaining(['sale:order:add', 'sale:order:modify']))
    expect(keys.get('supplier')).toContain('sale:order:add')
    // Agreed payments of an order choose pay types.
    expect(keys.get('paytype')).toEqual(expect.arrayContaining(['purchase:order:add', 'sale:order:modify']))
  })

  it('adds the query key of the lists that search by it, and passes holders on to the pickers of a picker\'s own search form', () => {
    expect(keys.get('supplier')).toContain('purchase:order:query')
    // The product picker filters by category: whoever may pick products may pick categories.
    for (const k of keys.get('product') ?? []) expect(keys.get('category'), k).toContain(k)
  })

  it('gives a multiple group field the pickers of the group members (product SPU: sale property groups and their items)', () => {
    expect(keys.get('saleprop')).toEqual(expect.arrayContaining(['base-data:product:poly:add', 'base-data:product:poly:modify']))
  })

  it('counts the screens hand-written modules serve (an api without family calls): stock list and take-stock plans', () => {
    expect(keys.get('sc')).toEqual(expect.arrayContaining(['stock:product:query', 'stock:take:plan:add', 'stock:take:plan:query']))
  })

  it('gives the pickers a text field declares in offersPickers to whoever writes its entity (take-stock plan by category or brand)', () => {
    for (const kind of ['category', 'brand']) expect(keys.get(kind), kind).toContain('stock:take:plan:add')
    expect(keys.get('category')).not.toContain('stock:take:plan:query')
  })

  it('keeps platform and system pickers to their own screens', () => {
    expect(keys.get('tenant')).toEqual(['system:tenant:query'])
    expect(keys.get('role')).toEqual(['system:role:query', 'system:user:add', 'system:user:modify'])
    expect(keys.get('menu')).toEqual(['system:menu:add', 'system:menu:modify', 'system:menu:query'])
  })
})
