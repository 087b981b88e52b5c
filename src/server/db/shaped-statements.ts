import { isDeepStrictEqual } from 'node:util'
import { ExpressionWrapper, expressionBuilder, type Compilable, type CompiledQuery, type Expression, type OperationNode, type SqlBool } from 'kysely'
import type { Db } from './dialect.js'

/**
 * Statements compiled once per shape and bound anew on every call (issue 33's compiled-statement cache). A list
 * builds its conditions and data-permission predicate, which is cheap, and from them one statement in Kysely,
 * which is not: assembling and compiling a picker's page took more time than SQLite took to answer a narrow
 * search. The statement's shape is what the caller names (`shape`: everything `build` reads besides its
 * arguments) and the structure of its filters with their bound values taken out; a shape seen before reuses
 * its SQL text, and only the values are bound again.
 *
 * The first time a shape is seen, `build` runs with a marker in place of every bound value, and the compiled
 * statement shows where each marker went. A shape whose markers are not each found exactly once (a value
 * written into the text) is built every time. Kept per database handle (a tenant's schema is in the text on
 * PostgreSQL); a transaction's handle keeps nothing.
 */

/** Filters over any table, for `shapedStatement` (an expression builder holds no state: one serves every call). */
export const where = expressionBuilder<any, any>() // eslint-disable-line @typescript-eslint/no-explicit-any

const SLOT = '\u0000slot'
type Slot = { [SLOT]: number }
const isSlot = (v: unknown): v is Slot => typeof v === 'object' && v !== null && SLOT in v

/** A bound value's place in the structure's text (no node or identifier is this string). */
const BOUND = '\u0000?'

/** Each parameter of the compiled statement: the index of the value bound there, or a value of the shape itself. */
type Parameter = number | { fixed: unknown }
interface Plan {
  compiled: CompiledQuery
  parameters: Parameter[]
}
/** A shape that cannot be planned: built every time. */
const UNPLANNED = 'unplanned'

const kept = new WeakMap<Db, Map<string, Plan | typeof UNPLANNED>>()
const KEPT_PER_HANDLE = 1000

/** When on (the tests), every statement bound from a plan is built too, and a difference is an error. */
let checking = false
export function checkShapedStatements(on: boolean): void {
  checking = on
}

interface NodeLike {
  kind?: string
  immediate?: boolean
  value?: unknown
  values?: readonly unknown[]
}

/**
 * The structure of `node` as text, each bound value replaced by what `bound` answers for it (a value node or a
 * list of values); undefined when JSON cannot write the structure.
 */
function structure(node: OperationNode, bound: (node: NodeLike) => unknown): string | undefined {
  try {
    return JSON.stringify(node, (_key, v: NodeLike | unknown) => {
      if (typeof v !== 'object' || v === null) return v
      const inner = v as NodeLike
      if ((inner.kind === 'ValueNode' && !inner.immediate) || inner.kind === 'PrimitiveValueListNode') return bound(inner)
      return v
    })
  } catch {
    return undefined
  }
}

/** A filter's structure with its bound values marked (`BOUND`, or the length of a list of them), and the values in the order met. */
interface Described {
  text: string
  values: unknown[]
}

/** Kysely's nodes are frozen: a filter made once and used by many calls (a data-permission predicate) is described once. */
const descriptions = new WeakMap<OperationNode, Described | null>()

function describe(node: OperationNode): Described | null {
  const known = descriptions.get(node)
  if (known !== undefined) return known
  const values: unknown[] = []
  const text = structure(node, (inner) => {
    if (inner.kind === 'ValueNode') {
      values.push(inner.value)
      return BOUND
    }
    values.push(...(inner.values ?? []))
    return `${BOUND}${inner.values?.length ?? 0}`
  })
  const described = text === undefined ? null : { text, values }
  descriptions.set(node, described)
  return described
}

function plan(filters: readonly OperationNode[], outer: number, build: (filters: readonly Expression<SqlBool>[], values: readonly unknown[]) => Compilable<unknown>): Plan | typeof UNPLANNED {
  let slots = 0
  const slot = (): Slot => ({ [SLOT]: slots++ })
  const slotted: Expression<SqlBool>[] = []
  for (const filter of filters) {
    const text = structure(filter, (node) =>
      node.kind === 'ValueNode' ? { kind: 'ValueNode', value: slot() } : { kind: 'PrimitiveValueListNode', values: (node.values ?? []).map(slot) },
    )
    if (text === undefined) return UNPLANNED
    slotted.push(new ExpressionWrapper<object, never, SqlBool>(JSON.parse(text) as OperationNode))
  }
  const compiled = build(
    slotted,
    Array.from({ length: outer }, () => slot()),
  ).compile()
  const seen = new Set<number>()
  const parameters: Parameter[] = []
  for (const p of compiled.parameters) {
    if (!isSlot(p)) {
      parameters.push({ fixed: p })
      continue
    }
    if (seen.has(p[SLOT])) return UNPLANNED
    seen.add(p[SLOT])
    parameters.push(p[SLOT])
  }
  return seen.size === slots ? { compiled, parameters } : UNPLANNED
}

/**
 * `build(filters, values)` as a compiled statement: from the plan of its shape when one is kept, else built
 * (and planned for the next call). `build` may read nothing that `shape` does not name, and binds `values`
 * (a page's limit and offset) as values.
 */
export function shapedStatement<R>(
  db: Db,
  shape: string,
  filters: readonly Expression<SqlBool>[],
  values: readonly unknown[],
  build: (filters: readonly Expression<SqlBool>[], values: readonly unknown[]) => Compilable<R>,
): Compilable<R> {
  if (db.isTransaction) return build(filters, values)
  const nodes = filters.map((f) => f.toOperationNode())
  const described: Described[] = []
  for (const node of nodes) {
    const d = describe(node)
    if (!d) return build(filters, values)
    described.push(d)
  }
  let plans = kept.get(db)
  if (!plans) kept.set(db, (plans = new Map()))
  const key = [shape, ...described.map((d) => d.text)].join('\u0000')
  let found = plans.get(key)
  if (!found) {
    found = plan(nodes, values.length, build as (filters: readonly Expression<SqlBool>[], values: readonly unknown[]) => Compilable<unknown>)
    if (plans.size >= KEPT_PER_HANDLE) plans.delete(plans.keys().next().value as string)
    plans.set(key, found)
  }
  if (found === UNPLANNED) return build(filters, values)
  const all = [...described.flatMap((d) => d.values), ...values]
  const compiled = { ...found.compiled, parameters: found.parameters.map((p) => (typeof p === 'number' ? all[p] : p.fixed)) } as CompiledQuery<R>
  if (checking) {
    const built = build(filters, values).compile()
    if (built.sql !== compiled.sql || !isDeepStrictEqual(built.parameters, compiled.parameters))
      throw new Error(`statement of shape ${shape} planned as ${compiled.sql} ${JSON.stringify(compiled.parameters)}, built as ${built.sql} ${JSON.stringify(built.parameters)}`)
  }
  return { compile: () => compiled }
}
