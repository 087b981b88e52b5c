import type { Db } from '../../db/dialect.js'
import type { EntityRegistry } from '../../engine/entity-registry.js'
import { linkTable } from '../../engine/entity-tables.js'

interface DeptNode {
  id: string
  name: string
  parentId: string | null
  leaderId: string | null
}

export interface Manager {
  managerId: string
  managerName: string
  /** The applicant's department the walk started from. */
  deptId: string
  deptName: string
}

/** The department tree of the tenant (small: read whole, walked in memory). */
async function deptTree(db: Db, registry: EntityRegistry): Promise<Map<string, DeptNode>> {
  const dept = registry.get('dept')
  const rows = await db
    .selectFrom(dept.table)
    .select(['id', 'name', 'parent_id', 'leader_id'])
    .execute()
  return new Map(rows.map((r) => [String(r.id), { id: String(r.id), name: String(r.name ?? ''), parentId: r.parent_id ? String(r.parent_id) : null, leaderId: r.leader_id ? String(r.leader_id) : null }]))
}

/** The user's departments, in code order (a user may belong to several: the first one decides). */
async function userDepts(db: Db, registry: EntityRegistry, userId: string): Promise<string[]> {
  const user = registry.get('user')
  const dept = registry.get('dept')
  const rows = await db
    .selectFrom(`${linkTable(user, user.byName.get('deptIds')!)} as l`)
    .innerJoin(`${dept.table} as d`, 'd.id', 'l.ref_id')
    .select('d.id')
    .where('l.owner_id', '=', userId)
    .orderBy('d.code')
    .execute()
  return rows.map((r) => String(r.id))
}

async function availableUsers(db: Db, registry: EntityRegistry, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map()
  const user = registry.get('user')
  const rows = await db.selectFrom(user.table).select(['id', 'name', 'available']).where('id', 'in', ids).execute()
  return new Map(rows.filter((r) => r.available === true || Number(r.available) === 1).map((r) => [String(r.id), String(r.name ?? '')]))
}

/**
 * Who approves for `userId`: the leader of the user's (first) department; when that department has no
 * leader, its leader is the user, or the leader is disabled, the leader of the department above, and so
 * on up the tree. Null when nobody above has a leader.
 */
export async function managerOf(db: Db, registry: EntityRegistry, userId: string): Promise<Manager | null> {
  const [first] = await userDepts(db, registry, userId)
  if (!first) return null
  const tree = await deptTree(db, registry)
  const leaders = await availableUsers(db, registry, [...new Set([...tree.values()].map((d) => d.leaderId).filter((x): x is string => !!x))])
  const seen = new Set<string>()
  for (let node = tree.get(first); node && !seen.has(node.id); node = node.parentId ? tree.get(node.parentId) : undefined) {
    seen.add(node.id)
    if (node.leaderId && node.leaderId !== userId && leaders.has(node.leaderId))
      return { managerId: node.leaderId, managerName: leaders.get(node.leaderId)!, deptId: first, deptName: tree.get(first)!.name }
  }
  return null
}

/**
 * The user and everyone in the departments they lead, with the departments below them: whose work
 * the user follows as a leader (work reports and their statistics).
 */
export async function teamOf(db: Db, registry: EntityRegistry, userId: string): Promise<string[]> {
  const tree = await deptTree(db, registry)
  const children = new Map<string, string[]>()
  for (const d of tree.values()) if (d.parentId) children.set(d.parentId, [...(children.get(d.parentId) ?? []), d.id])
  const led = new Set<string>()
  const stack = [...tree.values()].filter((d) => d.leaderId === userId).map((d) => d.id)
  while (stack.length) {
    const id = stack.pop()!
    if (led.has(id)) continue
    led.add(id)
    stack.push(...(children.get(id) ?? []))
  }
  if (!led.size) return [userId]
  const user = registry.get('user')
  const members = await db
    .selectFrom(linkTable(user, user.byName.get('deptIds')!))
    .select('owner_id')
    .where('ref_id', 'in', [...led])
    .execute()
  return [...new Set([userId, ...members.map((m) => String(m.owner_id))])]
}
