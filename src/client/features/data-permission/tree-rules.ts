import {
  DATA_PERMISSION_CALC_TYPE as CALC,
  DATA_PERMISSION_CONDITION as COND,
  DATA_PERMISSION_INPUT_TYPE as INPUT,
  DATA_PERMISSION_NODE_TYPE as NODE,
} from '../../../shared/generated/enum-codes.js'
import {
  LIST_CONDITIONS,
  MSG,
  PermissionTreeError,
  detailMap,
  validatePermissionTree,
  type PermissionNode,
} from '../../../shared/data-permission/tree.js'

/**
 * The designer's tree, without React: building nodes from the palette, adding, moving, changing and
 * removing them, and the checks before preview and confirm (the shared validation the server runs
 * too, so the messages are the same on both sides).
 */

export { MSG }

import type { PaletteItem, PermissionModelRow } from '../../../shared/contracts/system.js'

export type { PaletteItem, PermissionModelRow }

/** A node as the designer holds it (000 §3 "Data-permission node"); `id` is unique within the tree. */
export interface DesignerNode {
  id: string
  nodeType: number
  calcType?: number
  detailId?: number
  name: string
  inputType?: number | null
  conditionTypes?: number[]
  conditionType?: number
  enumName?: string | null
  value?: string
  values?: string[]
  children?: DesignerNode[]
}

/** Saved as the operation node's `name` (data, in Simplified); screens show it through tr(). */
export const CALC_NAME: Readonly<Record<number, string>> = { [CALC.AND]: '并且', [CALC.OR]: '或者' } // i18n-ignore

/** Labels of DATA_PERMISSION_CONDITION when the metadata has not loaded (schemas/enums.json); shown through tr(). */
export const CONDITION_LABEL: Readonly<Record<number, string>> = {
  [COND.EQ]: '等于', // i18n-ignore
  [COND.GT]: '大于', // i18n-ignore
  [COND.GE]: '大于或等于', // i18n-ignore
  [COND.LT]: '小于', // i18n-ignore
  [COND.LE]: '小于或等于', // i18n-ignore
  [COND.NE]: '不等于', // i18n-ignore
  [COND.IN]: '在列表中', // i18n-ignore
  [COND.NOT_IN]: '不在列表中', // i18n-ignore
  [COND.LEFT_LIKE]: '结尾', // i18n-ignore
  [COND.RIGHT_LIKE]: '开头', // i18n-ignore
  [COND.AROUND_LIKE]: '包含', // i18n-ignore
}

/** The delete questions (Simplified; the designer shows them through tr()). */
export const DELETE_CONFIRM = {
  CALC: '确认删除此节点以及包含的子节点？', // i18n-ignore
  CONDITION: '确认删除此节点？', // i18n-ignore
} as const

import { DATE_FORMAT, DATETIME_FORMAT } from '../../components/date-formats.js'
export { DATE_FORMAT, DATETIME_FORMAT }

let seq = 0
/** A fresh node id (also what is saved: the ancestor kept the designer's ids in the JSON). */
export function newNodeId(): string {
  seq += 1
  return `n${Date.now().toString(36)}${seq.toString(36)}${Math.random().toString(36).slice(2, 6)}`
}

export const isCalc = (n: { nodeType: number }) => n.nodeType === NODE.CALC
export const isSql = (n: { inputType?: number | null }) => n.inputType === INPUT.SQL
export const isListCondition = (code: number | undefined) => code !== undefined && LIST_CONDITIONS.has(code)

export function newCalcNode(calcType: number): DesignerNode {
  return { id: newNodeId(), nodeType: NODE.CALC, calcType, name: CALC_NAME[calcType] ?? '', children: [] }
}

/** A condition node from its palette entry; its condition starts at the first one the field allows. */
export function newConditionNode(item: PaletteItem): DesignerNode {
  const conditionType = item.conditionTypes[0]
  return {
    id: newNodeId(),
    nodeType: NODE.CONDITION,
    detailId: item.detailId ?? item.id,
    name: item.name,
    inputType: item.inputType,
    conditionTypes: [...item.conditionTypes],
    conditionType,
    enumName: item.enumName ?? null,
    ...(isListCondition(conditionType) ? { values: [] } : { value: '' }),
  }
}

/**
 * The tree `queryByBizId` answers (`nodes`, described with names and inputs) as designer nodes: every
 * node gets an id, lists and values get their usual shape.
 */
export function fromSaved(nodes: unknown): DesignerNode[] {
  if (!Array.isArray(nodes)) return []
  const seen = new Set<string>()
  const convert = (raw: unknown): DesignerNode | undefined => {
    if (!raw || typeof raw !== 'object') return undefined
    const r = raw as Record<string, unknown>
    let id = typeof r.id === 'string' || typeof r.id === 'number' ? String(r.id) : ''
    if (!id || seen.has(id)) id = newNodeId()
    seen.add(id)
    const nodeType = Number(r.nodeType)
    if (nodeType === NODE.CALC) {
      const calcType = Number(r.calcType) === CALC.OR ? CALC.OR : CALC.AND
      const children = Array.isArray(r.children) ? r.children.map(convert).filter((c): c is DesignerNode => Boolean(c)) : []
      return { id, nodeType, calcType, name: CALC_NAME[calcType], children }
    }
    const conditionType = r.conditionType === null || r.conditionType === undefined ? undefined : Number(r.conditionType)
    return {
      id,
      nodeType: NODE.CONDITION,
      detailId: Number(r.detailId),
      name: typeof r.name === 'string' ? r.name : '',
      inputType: r.inputType === null || r.inputType === undefined ? null : Number(r.inputType),
      conditionTypes: Array.isArray(r.conditionTypes) ? r.conditionTypes.map(Number) : [],
      conditionType,
      enumName: typeof r.enumName === 'string' ? r.enumName : null,
      ...(isListCondition(conditionType)
        ? { values: Array.isArray(r.values) ? r.values.map(String) : [] }
        : { value: r.value === null || r.value === undefined ? '' : String(r.value) }),
    }
  }
  return nodes.map(convert).filter((n): n is DesignerNode => Boolean(n))
}

/* ---------- looking up ---------- */

export function findNode(tree: readonly DesignerNode[], id: string): DesignerNode | undefined {
  for (const n of tree) {
    if (n.id === id) return n
    const inner = n.children && findNode(n.children, id)
    if (inner) return inner
  }
  return undefined
}

/** The operation node that holds `id`, null at the top level, undefined when `id` is not in the tree. */
export function parentOf(tree: readonly DesignerNode[], id: string, parent: DesignerNode | null = null): DesignerNode | null | undefined {
  for (const n of tree) {
    if (n.id === id) return parent
    if (n.children) {
      const found = parentOf(n.children, id, n)
      if (found !== undefined) return found
    }
  }
  return undefined
}

/** Whether `id` is `ancestorId` or lies below it. */
export function isWithin(tree: readonly DesignerNode[], id: string, ancestorId: string): boolean {
  const ancestor = findNode(tree, ancestorId)
  return Boolean(ancestor && findNode([ancestor], id))
}

/**
 * Where a click on the palette adds: the selected operation node, or the operation node holding the
 * selected condition; null (the top level) when nothing is selected.
 */
export function addTarget(tree: readonly DesignerNode[], selectedId: string | null | undefined): string | null {
  if (!selectedId) return null
  const selected = findNode(tree, selectedId)
  if (!selected) return null
  if (isCalc(selected)) return selected.id
  return parentOf(tree, selectedId)?.id ?? null
}

export function countNodes(tree: readonly DesignerNode[]): number {
  return tree.reduce((sum, n) => sum + 1 + countNodes(n.children ?? []), 0)
}

/* ---------- changing (each answers a new tree, or the spec's message) ---------- */

export type TreeChange = { ok: true; tree: DesignerNode[] } | { ok: false; message: string }

const mapTree = (tree: readonly DesignerNode[], fn: (n: DesignerNode) => DesignerNode): DesignerNode[] =>
  tree.map((n) => {
    const mapped = fn(n)
    return mapped.children ? { ...mapped, children: mapTree(mapped.children, fn) } : mapped
  })

/**
 * Adds `node` to the operation node `parentId`, or to the top level (null). The top level takes only
 * operation nodes (此区域只允许添加运算节点): the node is not added. A condition node holds nothing.
 */
export function insertNode(tree: readonly DesignerNode[], parentId: string | null, node: DesignerNode, index?: number): TreeChange {
  const place = (list: readonly DesignerNode[]) => {
    const at = index === undefined ? list.length : Math.max(0, Math.min(index, list.length))
    return [...list.slice(0, at), node, ...list.slice(at)]
  }
  if (parentId === null) {
    if (!isCalc(node)) return { ok: false, message: MSG.CALC_ONLY }
    return { ok: true, tree: place(tree) }
  }
  const parent = findNode(tree, parentId)
  if (!parent || !isCalc(parent)) return { ok: false, message: MSG.FORMAT }
  return { ok: true, tree: mapTree(tree, (n) => (n.id === parentId ? { ...n, children: place(n.children ?? []) } : n)) }
}

/** Removes the node and what it holds. */
export function removeNode(tree: readonly DesignerNode[], id: string): DesignerNode[] {
  return tree
    .filter((n) => n.id !== id)
    .map((n) => (n.children ? { ...n, children: removeNode(n.children, id) } : n))
}

/**
 * Moves an existing node into the operation node `parentId` (or the top level), appended. Refused with
 * 此区域只允许添加运算节点 for a condition at the top level (the node stays where it was); dropping a
 * node into itself or below itself changes nothing.
 */
export function moveNode(tree: readonly DesignerNode[], id: string, parentId: string | null): TreeChange {
  const node = findNode(tree, id)
  if (!node) return { ok: true, tree: [...tree] }
  if (parentId === null && !isCalc(node)) return { ok: false, message: MSG.CALC_ONLY }
  if (parentId !== null && isWithin(tree, parentId, id)) return { ok: true, tree: [...tree] }
  const current = parentOf(tree, id)
  if ((current?.id ?? null) === parentId) return { ok: true, tree: [...tree] }
  return insertNode(removeNode(tree, id), parentId, node)
}

/** Changes one node's own properties (not its children). */
export function updateNode(tree: readonly DesignerNode[], id: string, patch: Partial<Omit<DesignerNode, 'id' | 'children'>>): DesignerNode[] {
  return mapTree(tree, (n) => (n.id === id ? { ...n, ...patch } : n))
}

/**
 * A new condition type: IN / NOT IN keep a list of values, the others one value; what was entered
 * carries over (the first value of a list, or the value as a one-item list).
 */
export function changeConditionType(tree: readonly DesignerNode[], id: string, conditionType: number): DesignerNode[] {
  const node = findNode(tree, id)
  if (!node) return [...tree]
  const wasList = isListCondition(node.conditionType)
  const isList = isListCondition(conditionType)
  if (wasList === isList) return updateNode(tree, id, { conditionType })
  if (isList) {
    const v = (node.value ?? '').trim()
    return updateNode(tree, id, { conditionType, values: v ? [v] : [], value: undefined })
  }
  return updateNode(tree, id, { conditionType, value: node.values?.[0] ?? '', values: undefined })
}

export const deleteConfirmText = (node: DesignerNode) => (isCalc(node) ? DELETE_CONFIRM.CALC : DELETE_CONFIRM.CONDITION)

/* ---------- the value input of a condition node ---------- */

export type ValueWidget = 'sql' | 'text' | 'tags' | 'select' | 'multiSelect' | 'datetime' | 'date'

/**
 * 000 §5 condition inputs: free text (tags for in/not-in), enum select (multiple for in/not-in),
 * datetime, date, SQL (no condition type picker and no value).
 */
export function valueWidget(node: Pick<DesignerNode, 'inputType' | 'conditionType'>): ValueWidget {
  const list = isListCondition(node.conditionType)
  switch (node.inputType) {
    case INPUT.SQL:
      return 'sql'
    case INPUT.SELECT:
      return list ? 'multiSelect' : 'select'
    case INPUT.DATE_TIME:
      return list ? 'tags' : 'datetime'
    case INPUT.DATE:
      return list ? 'tags' : 'date'
    default:
      return list ? 'tags' : 'text'
  }
}

/* ---------- checks before preview and confirm ---------- */

export type TreeCheck = { ok: true; permission: PermissionNode[] } | { ok: false; message: string; nodeId?: string }

/**
 * The designer's checks (最外层必须是运算节点, 运算节点必须包含子节点, 节点：【{name}】请输入值 and the
 * value formats), the same function the server runs; answers the tree as it is saved.
 */
export function checkTree(tree: readonly DesignerNode[], palette: readonly PaletteItem[], modelId?: number): TreeCheck {
  // The palette describes the fields; nodes loaded from a save also carry their own description
  // (a field no longer in the palette then still shows its name).
  const rules = detailMap([
    ...collectConditions(tree).map((n) => ({
      id: Number(n.detailId),
      modelId: modelId ?? -1,
      name: n.name,
      inputType: Number(n.inputType ?? INPUT.INPUT),
      conditionTypes: n.conditionTypes ?? [],
    })),
    ...palette.map((p) => ({ id: p.detailId ?? p.id, modelId: p.modelId, name: p.name, inputType: p.inputType, conditionTypes: p.conditionTypes })),
  ])
  try {
    return { ok: true, permission: validatePermissionTree(tree, rules, modelId === undefined ? {} : { modelId }) }
  } catch (error) {
    if (error instanceof PermissionTreeError) return { ok: false, message: error.message, nodeId: error.nodeId }
    throw error
  }
}

function collectConditions(tree: readonly DesignerNode[]): DesignerNode[] {
  return tree.flatMap((n) => (isCalc(n) ? collectConditions(n.children ?? []) : [n]))
}

/** The first of several trees (in tab order) that fails its checks, with its message. */
export function firstInvalid<K>(
  trees: readonly { key: K; tree: readonly DesignerNode[]; palette: readonly PaletteItem[]; modelId?: number }[],
): { key: K; message: string; nodeId?: string } | undefined {
  for (const t of trees) {
    const check = checkTree(t.tree, t.palette, t.modelId)
    if (!check.ok) return { key: t.key, message: check.message, nodeId: check.nodeId }
  }
  return undefined
}
