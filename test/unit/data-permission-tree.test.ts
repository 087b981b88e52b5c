import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  addTarget,
  changeConditionType,
  checkTree,
  deleteConfirmText,
  findNode,
  firstInvalid,
  fromSaved,
  insertNode,
  moveNode,
  newCalcNode,
  newConditionNode,
  parentOf,
  removeNode,
  updateNode,
  valueWidget,
  type DesignerNode,
  type PaletteItem,
  type TreeChange,
} from '../../src/client/features/data-permission/tree-rules.js'
import { PermissionTreeError, validatePermissionTree as validateShared, detailMap } from '../../src/shared/data-permission/tree.js'
import { BizError } from '../../src/server/platform/errors.js'
import { parseModelSeed, validatePermissionTree as validateServer } from '../../src/server/platform/data-permission-sql.js'

/** The palette as `GET /system/data/permission/model/detail?modelId` answers it, from the seed. */
const seed = parseModelSeed(JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../schemas/seed/data-permission-models.json'), 'utf8')))
const paletteOf = (modelId: number): PaletteItem[] =>
  seed.details
    .filter((d) => d.modelId === modelId)
    .map((d) => ({ id: d.id, detailId: d.id, modelId: d.modelId, nodeType: 2, name: d.name, inputType: d.inputType, conditionTypes: d.conditionTypes, enumName: d.enumName ?? null }))
const product = paletteOf(1)
const order = paletteOf(2)
const item = (palette: PaletteItem[], name: string) => palette.find((p) => p.name === name)!

const ok = (change: TreeChange): DesignerNode[] => {
  if (!change.ok) throw new Error(`refused: ${change.message}`)
  return change.tree
}

/** AND(编号 starts-with value), built the way the designer does. */
function andWithCode(value: string) {
  const and = newCalcNode(1)
  const code = { ...newConditionNode(item(product, '编号')), conditionType: 9, value }
  const tree = ok(insertNode(ok(insertNode([], null, and)), and.id, code))
  return { tree, and, code }
}

describe('designer tree: adding and moving nodes', () => {
  it('takes operation nodes at the top level and refuses conditions there (此区域只允许添加运算节点)', () => {
    const and = newCalcNode(1)
    expect(and).toMatchObject({ nodeType: 1, calcType: 1, name: '并且', children: [] })
    const tree = ok(insertNode([], null, and))
    const refused = insertNode(tree, null, newConditionNode(item(product, '编号')))
    expect(refused).toEqual({ ok: false, message: '此区域只允许添加运算节点' })
    // Nothing was added.
    expect(tree).toHaveLength(1)
    expect(tree[0].children).toEqual([])
  })

  it('adds conditions and nested operations into an operation node, never into a condition', () => {
    const { tree, and, code } = andWithCode('A')
    const or = newCalcNode(2)
    const nested = ok(insertNode(tree, and.id, or))
    expect(findNode(nested, and.id)!.children!.map((c) => c.name)).toEqual(['编号', '或者'])
    expect(parentOf(nested, or.id)?.id).toBe(and.id)
    expect(parentOf(nested, and.id)).toBeNull()
    expect(insertNode(nested, code.id, newConditionNode(item(product, '名称'))).ok).toBe(false)
  })

  it('a palette click adds into the selected operation node, or the one holding the selected condition, else the top level', () => {
    const { tree, and, code } = andWithCode('A')
    expect(addTarget(tree, null)).toBeNull()
    expect(addTarget(tree, and.id)).toBe(and.id)
    expect(addTarget(tree, code.id)).toBe(and.id)
    expect(addTarget(tree, 'gone')).toBeNull()
  })

  it('moves nodes between operation nodes; a condition cannot move to the top level, a node not into itself', () => {
    const { tree, and, code } = andWithCode('A')
    const or = newCalcNode(2)
    let t = ok(insertNode(tree, null, or))
    t = ok(moveNode(t, code.id, or.id))
    expect(findNode(t, and.id)!.children).toEqual([])
    expect(findNode(t, or.id)!.children!.map((c) => c.id)).toEqual([code.id])
    expect(moveNode(t, code.id, null)).toEqual({ ok: false, message: '此区域只允许添加运算节点' })
    // An operation node into its own child stays where it is.
    const inner = newCalcNode(1)
    t = ok(insertNode(t, or.id, inner))
    expect(ok(moveNode(t, or.id, inner.id))).toEqual(t)
    // An operation node may go to the top level.
    t = ok(moveNode(t, inner.id, null))
    expect(t.map((n) => n.id)).toEqual([and.id, or.id, inner.id])
  })

  it('removes a node with what it holds; the confirmations name the kind', () => {
    const { tree, and, code } = andWithCode('A')
    expect(removeNode(tree, code.id)[0].children).toEqual([])
    expect(removeNode(tree, and.id)).toEqual([])
    expect(deleteConfirmText(and)).toBe('确认删除此节点以及包含的子节点？')
    expect(deleteConfirmText(code)).toBe('确认删除此节点？')
  })
})

describe('designer tree: condition inputs', () => {
  it('picks the input by input type and condition (tags and multiple selects for IN / NOT IN, none for SQL)', () => {
    const code = newConditionNode(item(product, '编号'))
    expect(code.conditionType).toBe(0)
    expect(valueWidget(code)).toBe('text')
    expect(valueWidget({ ...code, conditionType: 6 })).toBe('tags')
    expect(valueWidget({ ...code, conditionType: 7 })).toBe('tags')
    const status = newConditionNode(item(product, '状态'))
    expect(valueWidget(status)).toBe('select')
    expect(valueWidget({ ...status, conditionType: 6 })).toBe('multiSelect')
    expect(valueWidget(newConditionNode(item(product, '创建时间')))).toBe('datetime')
    expect(valueWidget({ inputType: 3, conditionType: 0 })).toBe('date')
    const same = newConditionNode(item(order, '创建人部门与本人相同'))
    expect(valueWidget(same)).toBe('sql')
    expect(same.conditionType).toBe(6)
  })

  it('carries what was entered over when the condition switches between one value and a list', () => {
    const { tree, code } = andWithCode('A')
    const listed = changeConditionType(tree, code.id, 6)
    expect(findNode(listed, code.id)).toMatchObject({ conditionType: 6, values: ['A'], value: undefined })
    const back = changeConditionType(updateNode(listed, code.id, { values: ['B', 'C'] }), code.id, 0)
    expect(findNode(back, code.id)).toMatchObject({ conditionType: 0, value: 'B', values: undefined })
  })

  it('reads a saved tree (queryByBizId nodes) with ids for every node', () => {
    const nodes = fromSaved([
      {
        id: null,
        nodeType: 1,
        calcType: 2,
        name: '或者',
        children: [
          { id: 'c1', nodeType: 2, detailId: 12, name: '状态', inputType: 1, conditionTypes: [0, 5, 6, 7], conditionType: 6, enumName: 'AVAILABLE', value: null, values: ['true'] },
          { id: 'c1', nodeType: 2, detailId: 1, name: '编号', inputType: 0, conditionTypes: [0, 9], conditionType: 9, enumName: null, value: 'A', values: [] },
        ],
      },
    ])
    expect(nodes[0].id).toMatch(/^n/)
    expect(nodes[0]).toMatchObject({ nodeType: 1, calcType: 2, name: '或者' })
    expect(nodes[0].children![0]).toMatchObject({ id: 'c1', values: ['true'], enumName: 'AVAILABLE' })
    // A repeated id is replaced so that every node can be found.
    expect(nodes[0].children![1].id).not.toBe('c1')
    expect(nodes[0].children![1]).toMatchObject({ value: 'A', conditionType: 9 })
    expect(fromSaved(null)).toEqual([])
  })
})

describe('designer tree: checks before preview and confirm', () => {
  it('answers the saved form of a valid tree', () => {
    const { tree, and } = andWithCode(' A ')
    const check = checkTree(tree, product, 1)
    expect(check.ok).toBe(true)
    if (!check.ok) return
    expect(check.permission).toEqual([{ id: and.id, nodeType: 1, calcType: 1, children: [{ id: expect.any(String), nodeType: 2, detailId: 1, conditionType: 9, value: 'A' }] }])
    expect(checkTree([], product, 1)).toEqual({ ok: true, permission: [] })
  })

  it('has the spec\'s messages, naming the failing node', () => {
    const cond = newConditionNode(item(product, '编号'))
    expect(checkTree([cond], product)).toEqual({ ok: false, message: '最外层必须是运算节点', nodeId: cond.id })
    const empty = newCalcNode(1)
    expect(checkTree([empty], product)).toEqual({ ok: false, message: '运算节点必须包含子节点', nodeId: empty.id })
    const { tree, code } = andWithCode('  ')
    expect(checkTree(tree, product)).toEqual({ ok: false, message: '节点：【编号】请输入值', nodeId: code.id })
    const listed = changeConditionType(tree, code.id, 7)
    expect(checkTree(listed, product)).toMatchObject({ ok: false, message: '节点：【编号】请输入值' })
    // SQL nodes need no value.
    const and = newCalcNode(1)
    const sqlTree = ok(insertNode([and], and.id, newConditionNode(item(order, '创建人部门是本人的下级部门'))))
    expect(checkTree(sqlTree, order, 2).ok).toBe(true)
    // Date-time values keep their format.
    const time = { ...newConditionNode(item(product, '创建时间')), value: '2024-01-01' }
    expect(checkTree(ok(insertNode([and], and.id, time)), product, 1)).toMatchObject({ ok: false, message: '节点：【创建时间】值格式不正确' })
  })

  it('finds the first invalid tree in tab order (the save stops there)', () => {
    const good = andWithCode('A').tree
    const bad = [newCalcNode(2)]
    expect(firstInvalid([{ key: 1, tree: good, palette: product, modelId: 1 }, { key: 2, tree: bad, palette: order, modelId: 2 }])).toEqual({
      key: 2,
      message: '运算节点必须包含子节点',
      nodeId: bad[0].id,
    })
    expect(firstInvalid([{ key: 1, tree: good, palette: product, modelId: 1 }, { key: 2, tree: [], palette: order, modelId: 2 }])).toBeUndefined()
  })

  it('is the same validation as the server\'s: shared error in the browser, a 400 BizError on the server', () => {
    const details = detailMap(seed.details)
    const tree = [{ nodeType: 1, calcType: 1, children: [] }]
    expect(() => validateShared(tree, details)).toThrow(PermissionTreeError)
    try {
      validateServer(tree, details)
      throw new Error('expected a validation error')
    } catch (error) {
      expect(error).toBeInstanceOf(BizError)
      expect((error as BizError).status).toBe(400)
      expect((error as BizError).message).toBe('运算节点必须包含子节点')
    }
  })
})
