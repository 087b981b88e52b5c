import { createHash } from 'node:crypto'
import { sql, type RawBuilder, type SqlBool } from 'kysely'
import type { Db, DbKind } from '../db/dialect.js'
import { compiledOnce, executePrepared } from '../db/prepared-statements.js'
import { DATA_PERMISSION_BIZ_TYPE as BIZ } from '../../shared/generated/enum-codes.js'
import { BizError } from './errors.js'
import type { RequestContext } from './request-context.js'
import {
  buildPermissionPredicate,
  combinePredicates,
  detailMap,
  validatePermissionTree,
  type ModelSeed,
  type PermissionVars,
} from './data-permission-sql.js'

/**
 * Data permission at query time: the saved trees of the signed-in user's roles, departments and own, as
 * one SQL predicate the store adds under every statement of a restricted entity (EntityStore.dataFilter).
 * Saving and showing the trees are the routes of modules/system/data-permission.ts.
 */

/** What the filter needs of the app: the dialect, where a tenant's tables live, and two facts of the schemas. */
export interface DataPermissionSetup {
  kind: DbKind
  /** The schema of a tenant's tables (PostgreSQL; none on SQLite), to qualify the tables a predicate names. */
  schemaOf(tenantId: string): string | undefined
  /** The link table of users and their departments (user.deptIds). */
  userDeptTable: string
  /** An enabled role's `available` as stored. */
  enabledRole: unknown
  /** The model details of schemas/seed/data-permission-models.json. */
  models(): ModelSeed
  /** `load()` of a user's data permission, or what a cache kept true by the grant tables' triggers holds of it. */
  ofUser<T>(tenantId: string, userId: string, what: string, load: () => Promise<T>): Promise<T>
}

/** One row per (target, permission type): a fixed id makes the save an upsert safe under concurrency. */
export const recordId = (bizType: number, permissionType: number, bizId: string) =>
  createHash('sha256').update(`${bizType}\u0000${permissionType}\u0000${bizId}`).digest('hex').slice(0, 32)

/** The department variables of a user whose own departments are `mine`. */
async function deptVars(db: Db, mine: string[]): Promise<PermissionVars> {
  if (!mine.length) return { curDeptIds: [], parentDeptIds: [], childDeptIds: [] }
  const depts = await db.selectFrom('sys_dept').select(['id', 'parent_id']).execute()
  const parentOf = new Map(depts.map((d) => [String(d.id), d.parent_id == null ? null : String(d.parent_id)]))
  const own = new Set(mine)
  const parents = new Set<string>()
  for (const id of mine) {
    let p = parentOf.get(id) ?? null
    for (let guard = 0; p && guard < 64 && !parents.has(p); guard++) {
      parents.add(p)
      p = parentOf.get(p) ?? null
    }
  }
  const children = new Set<string>()
  let frontier = [...own]
  for (let guard = 0; frontier.length && guard < 64; guard++) {
    const next = depts.filter((d) => d.parent_id != null && frontier.includes(String(d.parent_id))).map((d) => String(d.id))
    frontier = next.filter((id) => !children.has(id) && !own.has(id))
    for (const id of frontier) children.add(id)
  }
  return {
    curDeptIds: mine,
    parentDeptIds: [...parents].filter((id) => !own.has(id)),
    childDeptIds: [...children],
  }
}

/**
 * The data permission of the signed-in user for one permission type (1 商品, 2 单据), as a predicate
 * for a list query, or undefined when nothing restricts the user. As the ancestor: the saved trees of
 * the user's enabled roles, of their departments and of the user are AND-ed (more templates, fewer
 * rows). `aliases` maps the model's table placeholders to the query's aliases, e.g.
 * `{product: 'g', category: 'c', brand: 'b'}` or `{order: 't'}`. A saved tree that no longer validates
 * (a removed model detail) matches no rows: the permission fails closed.
 */
export async function dataPermissionFilter(
  setup: DataPermissionSetup,
  db: Db,
  ctx: RequestContext,
  permissionType: number,
  aliases: Readonly<Record<string, string>>,
  references: Readonly<Record<string, { table: string; key: string }>> = {},
): Promise<RawBuilder<SqlBool> | undefined> {
  const mine = await setup.ofUser(ctx.tenantId, ctx.userId, `data-permission:${permissionType}`, () => savedOfUser(setup, db, ctx.userId, permissionType))
  if (!mine) return undefined
  const schema = setup.schemaOf(ctx.tenantId)
  const qualified = (table: string) => (schema ? `${schema}.${table}` : table)
  const options = {
    dialect: setup.kind,
    aliases,
    vars: mine.vars,
    userDeptTable: qualified(setup.userDeptTable),
    references: Object.fromEntries(Object.entries(references).map(([placeholder, r]) => [placeholder, { table: qualified(r.table), key: r.key }])),
  }
  return permissionPredicate(permissionType, mine.saved, options, setup.models())
}

/**
 * The saved trees of one type that apply to a user, with the user's department variables; undefined when none
 * applies. It runs before every list of a restricted entity: its answer is kept per process as the grants are
 * (DataPermissionSetup.ofUser).
 */
async function savedOfUser(setup: DataPermissionSetup, db: Db, userId: string, permissionType: number): Promise<{ saved: { id: string; permission: string }[]; vars: PermissionVars } | undefined> {
  const link = setup.userDeptTable
  const enabled = setup.enabledRole
  // One statement: the user's departments, and the saved trees of the user's enabled roles, departments and
  // the user. Named on PostgreSQL: planning its sub-selects cost more than running them
  // (db/prepared-statements.ts). Its text and values follow from the type and the user: built and compiled
  // once (compiledOnce).
  const read = () =>
    db
      .selectFrom('sys_data_permission_data as d')
      .select(['d.id', 'd.biz_type', 'd.biz_id', 'd.permission', sql<string | null>`null`.as('dept_id')])
      .where('d.permission_type', '=', permissionType)
      .where((eb) =>
        eb.or([
          eb.and([
            eb('d.biz_type', '=', BIZ.ROLE),
            eb(
              'd.biz_id',
              'in',
              eb.selectFrom('sys_user_role as ur').innerJoin('sys_role as r', 'r.id', 'ur.role_id').select('r.id').where('ur.user_id', '=', userId).where('r.available', '=', enabled),
            ),
          ]),
          eb.and([eb('d.biz_type', '=', BIZ.DEPT), eb('d.biz_id', 'in', eb.selectFrom(link).select('ref_id').where('owner_id', '=', userId))]),
          eb.and([eb('d.biz_type', '=', BIZ.USER), eb('d.biz_id', '=', userId)]),
        ]),
      )
      .unionAll(
        db
          .selectFrom(link)
          .select([sql<string | null>`null`.as('id'), sql<number | null>`null`.as('biz_type'), sql<string | null>`null`.as('biz_id'), sql<string | null>`null`.as('permission'), 'ref_id as dept_id'])
          .where('owner_id', '=', userId),
      )
  const rows = await executePrepared(db, compiledOnce(db, `data-permission:${permissionType}:${userId}`, read))
  const mine = rows.filter((r) => r.dept_id != null).map((r) => String(r.dept_id))
  // A tree counts only under the id its target gives it (recordId), as saveData stores it.
  const saved = rows
    .filter((r) => r.id != null && String(r.id) === recordId(Number(r.biz_type), permissionType, String(r.biz_id)))
    .map((r) => ({ id: String(r.id), permission: String(r.permission) }))
    .sort((a, b) => a.id.localeCompare(b.id))
  if (!saved.length) return undefined
  return { saved, vars: await deptVars(db, mine) }
}

/**
 * Predicates built from saved trees, by everything they are built from (the trees' text, aliases,
 * departments, dialect): validating and rendering a tree costs more than the statement that reads it,
 * and the same few trees serve every list. Pure memoisation: a changed tree or department is another key.
 */
const predicates = new Map<string, RawBuilder<SqlBool> | undefined>()
const PREDICATES_KEPT = 500

function permissionPredicate(
  permissionType: number,
  saved: { id: string; permission: string }[],
  options: Parameters<typeof buildPermissionPredicate>[2],
  models: ModelSeed,
): RawBuilder<SqlBool> | undefined {
  const key = JSON.stringify([permissionType, saved, options])
  if (predicates.has(key)) return predicates.get(key)
  const { details } = models
  const map = detailMap(details)
  const list: RawBuilder<SqlBool>[] = []
  for (const row of saved) {
    try {
      const tree = validatePermissionTree(row.permission, map, { modelId: permissionType })
      const p = buildPermissionPredicate(tree, map, options)
      if (p) list.push(p)
    } catch (error) {
      if (!(error instanceof BizError)) throw error
      list.push(sql<SqlBool>`1 = 0`)
    }
  }
  const predicate = combinePredicates(list)
  if (predicates.size >= PREDICATES_KEPT) predicates.delete(predicates.keys().next().value as string)
  predicates.set(key, predicate)
  return predicate
}
