import type { Db } from '../../db/dialect.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { Wire } from '../../engine/record-codec.js'
import { BizError } from '../../platform/errors.js'

/**
 * Child lines (SKUs of a SPU, components of a bundle, values of a property) travel in the parent's
 * write as a `json` field of the entity file. The column of such a field is never written: `beforeSave`
 * takes the lines out of the values (so the generic insert/update leaves the column alone) and keeps
 * them here for `afterSave` of the same write, which gets the same values object.
 */
const pending = new WeakMap<Wire, Record<string, unknown>>()

export function takeLines(values: Wire, names: readonly string[]): Record<string, unknown> {
  const kept = pending.get(values) ?? {}
  for (const name of names) {
    if (!Object.prototype.hasOwnProperty.call(values, name)) continue
    kept[name] = values[name]
    delete values[name]
  }
  pending.set(values, kept)
  return kept
}

export function linesOf(values: Wire): Record<string, unknown> {
  return pending.get(values) ?? {}
}

export const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v)


/** Runs one line's work and prefixes its business error with the line, as v2 does (`第N行商品新增失败，具体原因：…`). */
export async function onLine<T>(prefix: string, linesField: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    // The failing field is a line's, so the error belongs to the lines field, not the parent's namesake.
    if (error instanceof BizError) throw new BizError(error.status === 404 ? 400 : error.status, `${prefix}${error.message}`, linesField)
    throw error
  }
}

/** A tree node and its ancestors, the node first (cycle-safe, depth-limited). */
export async function treeChain(db: Db, tree: EntityModel, nodeId: string): Promise<string[]> {
  const parent = tree.byName.get(tree.parentField ?? '')?.column
  const chain = [nodeId]
  let current: string | null = nodeId
  while (parent && current && chain.length < 64) {
    const row: Record<string, unknown> | undefined = await db
      .selectFrom(tree.table)
      .select(`${parent} as parent_id`)
      .where('id', '=', current)
      .executeTakeFirst()
    current = row?.parent_id ? String(row.parent_id) : null
    if (!current || chain.includes(current)) break
    chain.push(current)
  }
  return chain
}
