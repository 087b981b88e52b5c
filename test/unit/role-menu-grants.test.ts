import { describe, expect, it } from 'vitest'
import { buildMenuTree, grantMarks, grantedIds, toggleGrant, type MenuGrant } from '../../src/client/features/system/menu-tree.js'

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

  it('ticking a catalog grants every menu and button below it', () => {
    expect(toggleGrant(tree, [], 'base', true)).toEqual(['base', 'supplier', 'supplier-add', 'supplier-modify', 'customer'])
  })

  it('ticking a menu grants its buttons; unticking them leaves a read-only grant shown half-ticked', () => {
    const menuWithButtons = toggleGrant(tree, [], 'supplier', true)
    expect(menuWithButtons).toEqual(['base', 'supplier', 'supplier-add', 'supplier-modify'])
    const readOnly = toggleGrant(tree, toggleGrant(tree, menuWithButtons, 'supplier-add', false), 'supplier-modify', false)
    expect(readOnly).toEqual(['base', 'supplier'])
    expect(grantMarks(tree, readOnly)).toEqual({ checked: [], halfChecked: ['base', 'supplier'] })
  })

  it('unticking a menu clears everything below it and keeps the catalog for the others', () => {
    const all = ['base', 'supplier', 'supplier-add', 'supplier-modify', 'customer']
    expect(toggleGrant(tree, all, 'supplier', false)).toEqual(['base', 'customer'])
    expect(grantMarks(tree, all)).toEqual({ checked: all, halfChecked: [] })
  })

  it('a catalog left with nothing granted below it goes too', () => {
    expect(toggleGrant(tree, ['base', 'customer'], 'customer', false)).toEqual([])
  })

  it('saves a checked button with its ancestors even when they were not checked', () => {
    expect(grantedIds(tree, ['supplier-modify'])).toEqual(['base', 'supplier', 'supplier-modify'])
  })
})
