import { describe, expect, it } from 'vitest'
import { buildMenuTree, grantedIds, toggleGrant, type MenuGrant } from '../../src/client/features/system/menu-tree.js'

const menu = (id: string, parentId: string | null, display: number): MenuGrant => ({
  id,
  parentId,
  title: id,
  display,
  permission: null,
  available: true,
  selected: false,
})

const tree = buildMenuTree([
  menu('base', null, 0),
  menu('supplier', 'base', 1),
  menu('supplier-add', 'supplier', 2),
  menu('supplier-modify', 'supplier', 2),
  menu('customer', 'base', 1),
])

describe('role menu grants', () => {
  it('checking a button grants it with its menu and catalog, not its siblings', () => {
    expect(toggleGrant(tree, [], 'supplier-add', true)).toEqual(['base', 'supplier', 'supplier-add'])
  })

  it('a menu alone is a read-only grant: its buttons stay unchecked', () => {
    expect(toggleGrant(tree, [], 'supplier', true)).toEqual(['base', 'supplier'])
  })

  it('unchecking a menu clears everything below it and keeps the catalog for the others', () => {
    const all = ['base', 'supplier', 'supplier-add', 'supplier-modify', 'customer']
    expect(toggleGrant(tree, all, 'supplier', false)).toEqual(['base', 'customer'])
  })

  it('saves a checked button with its ancestors even when they were not checked', () => {
    expect(grantedIds(tree, ['supplier-modify'])).toEqual(['base', 'supplier', 'supplier-modify'])
  })
})
