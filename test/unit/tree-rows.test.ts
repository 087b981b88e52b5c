import { describe, expect, it } from 'vitest'
import { buildTree, filterTreeRows, parentKeys, subtreeIds } from '../../src/client/runtime/tree-rows.js'

const rows = [
  { id: 'a', parentId: null, code: 'A', name: '食品' },
  { id: 'b', parentId: 'a', code: 'A01', name: '饮料' },
  { id: 'c', parentId: 'b', code: 'A0101', name: '果汁' },
  { id: 'd', parentId: 'a', code: 'A02', name: '零食' },
  { id: 'e', parentId: null, code: 'B', name: '日用' },
]

describe('tree rows', () => {
  it('nests rows by parent and numbers them like an outline', () => {
    const tree = buildTree(rows, 'parentId')
    expect(tree.map((n) => [n.id, n.__seq])).toEqual([
      ['a', '1'],
      ['e', '2'],
    ])
    expect(tree[0].children!.map((n) => [n.id, n.__seq])).toEqual([
      ['b', '1.1'],
      ['d', '1.2'],
    ])
    expect(tree[0].children![0].children![0].__seq).toBe('1.1.1')
    expect(tree[1].children).toBeUndefined()
  })

  it('makes a row whose parent was filtered out a root, so matches stay visible', () => {
    const tree = buildTree(rows.filter((r) => r.id !== 'a'), 'parentId')
    expect(tree.map((n) => n.id)).toEqual(['b', 'd', 'e'])
  })

  it('survives a parent loop in bad data', () => {
    const tree = buildTree(
      [
        { id: 'x', parentId: 'y' },
        { id: 'y', parentId: 'x' },
      ],
      'parentId',
    )
    expect(tree.map((n) => n.id).sort()).toEqual(['x', 'y'])
  })

  it('lists the keys to expand everything and the ids below a node', () => {
    const tree = buildTree(rows, 'parentId')
    expect(parentKeys(tree)).toEqual(['a', 'b'])
    expect(subtreeIds(tree[0])).toEqual(['a', 'b', 'c', 'd'])
  })

  it('filters by name substring and keeps the ancestors of matches', () => {
    expect(filterTreeRows(rows, 'parentId', { name: '果' }).map((r) => r.id)).toEqual(['a', 'b', 'c'])
    expect(filterTreeRows(rows, 'parentId', { code: 'a02' }).map((r) => r.id)).toEqual(['a', 'd'])
    expect(filterTreeRows(rows, 'parentId', { code: ' ', name: '' })).toHaveLength(5)
  })

  it('looks for the trimmed text in the name whichever box it is typed in, the code still found', () => {
    const padded = [...rows, { id: 'f', parentId: 'e', code: 'B01', name: ' 纸巾 ' }]
    // 编号 holding a name finds the node by its name (000: tree pickers search the trimmed name).
    expect(filterTreeRows(padded, 'parentId', { code: ' 饮料 ' }).map((r) => r.id)).toEqual(['a', 'b'])
    expect(filterTreeRows(padded, 'parentId', { code: '纸巾' }).map((r) => r.id)).toEqual(['e', 'f'])
    expect(filterTreeRows(padded, 'parentId', { code: 'A0101' }).map((r) => r.id)).toEqual(['a', 'b', 'c'])
    expect(filterTreeRows(padded, 'parentId', { code: '不存在' })).toEqual([])
  })
})
