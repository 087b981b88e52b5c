import { auditColumns } from '../../platform/audit-columns.js'
import fs from 'node:fs'
import path from 'node:path'
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { sql, type RawBuilder, type SqlBool } from 'kysely'
import type { Db } from '../../db/dialect.js'
import { compiledOnce, executePrepared } from '../../db/prepared-statements.js'
import { SCHEMAS_DIR } from '../../engine/entity-registry.js'
import { linkTable } from '../../engine/entity-tables.js'
import { defineRoute } from '../../platform/routes.js'
import { BizError, forbidden, invalid } from '../../platform/errors.js'
import { inTransaction } from '../../platform/db-tx.js'
import { now } from '../../platform/clock.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import { ADMIN_PERMISSION } from '../../platform/permissions.js'
import { hasPermission, type RequestContext } from '../../platform/request-context.js'
import {
  buildPermissionPredicate,
  combinePredicates,
  detailMap,
  parseModelSeed,
  renderPermissionSql,
  validatePermissionTree,
  type ModelDetail,
  type ModelSeed,
  type PermissionNode,
  type PermissionVars,
} from '../../platform/data-permission-sql.js'
import {
  DATA_PERMISSION_BIZ_TYPE as BIZ,
  DATA_PERMISSION_CALC_TYPE as CALC,
  DATA_PERMISSION_NODE_TYPE as NODE,
} from '../../../shared/generated/enum-codes.js'
import type { FieldModel } from '../../../shared/metadata/entity-model.js'
import type { Services } from '../../engine/services.js'

/** Who may set data permissions of each target (menu buttons 角色/用户数据权限, 部门权限). */
const KEY_OF_BIZ: Record<number, string> = {
  [BIZ.ROLE]: 'system:role:data-permission',
  [BIZ.DEPT]: 'system:dept:permission',
  [BIZ.USER]: 'system:user:data-permission',
}
const ANY_KEY = Object.values(KEY_OF_BIZ)
const TARGET: Record<number, { table: string; missing: string }> = {
  [BIZ.ROLE]: { table: 'sys_role', missing: '角色不存在！' },
  [BIZ.DEPT]: { table: 'sys_dept', missing: '部门不存在！' },
  [BIZ.USER]: { table: 'sys_user', missing: '用户不存在！' },
}
const MAX_BIZ_IDS = 1000

let cachedSeed: ModelSeed | undefined
/** The model details of schemas/seed/data-permission-models.json, checked once. */
export function permissionModels(): ModelSeed {
  cachedSeed ??= parseModelSeed(JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'seed', 'data-permission-models.json'), 'utf8')))
  return cachedSeed
}

/** One row per (target, permission type): a fixed id makes the save an upsert safe under concurrency. */
const recordId = (bizType: number, permissionType: number, bizId: string) =>
  createHash('sha256').update(`${bizType}\u0000${permissionType}\u0000${bizId}`).digest('hex').slice(0, 32)

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')

/** The palette entry of a detail, as the designer uses it (a condition node template). */
function paletteNode(d: ModelDetail) {
  return {
    id: d.id,
    detailId: d.id,
    modelId: d.modelId,
    nodeType: NODE.CONDITION,
    name: d.name,
    inputType: d.inputType,
    conditionTypes: d.conditionTypes,
    enumName: d.enumName ?? null,
  }
}

const CALC_NAME: Record<number, string> = { [CALC.AND]: '并且', [CALC.OR]: '或者' }

/** A stored tree with the names, inputs and allowed conditions the designer shows. */
function describeTree(tree: readonly PermissionNode[], details: ReadonlyMap<number, ModelDetail>): unknown[] {
  return tree.map((n) => {
    if (n.nodeType === NODE.CALC)
      return { id: n.id ?? null, nodeType: n.nodeType, calcType: n.calcType, name: CALC_NAME[n.calcType ?? CALC.AND], children: describeTree(n.children ?? [], details) }
    const d = details.get(Number(n.detailId))
    return {
      id: n.id ?? null,
      nodeType: n.nodeType,
      detailId: n.detailId,
      modelId: d?.modelId ?? null,
      name: d?.name ?? '',
      inputType: d?.inputType ?? null,
      conditionTypes: d?.conditionTypes ?? [],
      conditionType: n.conditionType,
      enumName: d?.enumName ?? null,
      value: n.value ?? null,
      values: n.values ?? [],
    }
  })
}

function enumCode(services: Services, enumName: string, raw: unknown, empty: string, bad: string, field: string): number {
  if (blank(raw)) throw invalid(empty, field)
  const code = services.registry.enums.parse(enumName, typeof raw === 'string' ? raw.trim() : raw)
  if (typeof code !== 'number') throw invalid(bad, field)
  return code
}

interface SaveItem {
  bizIds: string[]
  bizType: number
  permissionType: number
  tree: PermissionNode[]
}

/**
 * One save item ({bizIds | bizId, bizType, permissionType, permission}), checked in the ancestor's order;
 * the tree must use details of the model whose id is the permission type (1 商品, 2 单据).
 */
function parseSaveItem(services: Services, ctx: RequestContext, raw: unknown): SaveItem {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid('请求参数格式错误')
  const input = raw as Record<string, unknown>
  const ids = input.bizIds !== undefined ? input.bizIds : blank(input.bizId) ? [] : [input.bizId]
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || !id.trim())) throw invalid('业务ID不能为空！', 'bizIds')
  const bizIds = [...new Set((ids as string[]).map((id) => id.trim()))]
  if (!bizIds.length) throw invalid('业务ID不能为空！', 'bizIds')
  if (bizIds.length > MAX_BIZ_IDS) throw invalid(`业务ID不能超过${MAX_BIZ_IDS}个`, 'bizIds')
  const bizType = enumCode(services, 'DATA_PERMISSION_BIZ_TYPE', input.bizType, '业务类型不能为空！', '业务类型格式错误！', 'bizType')
  const permissionType = enumCode(services, 'DATA_PERMISSION_TYPE', input.permissionType, '权限类型不能为空！', '权限类型格式错误！', 'permissionType')
  if (!hasPermission(ctx, [KEY_OF_BIZ[bizType]])) throw forbidden()
  const tree = validatePermissionTree(input.permission, detailMap(permissionModels().details), { modelId: permissionType })
  return { bizIds, bizType, permissionType, tree }
}

export function dataPermissionRoutes(app: FastifyInstance, services: Services): void {
  const seed = permissionModels()
  const details = detailMap(seed.details)

  // A deleted role takes its data permissions along (users and departments are only disabled).
  services.hooks.on('role', {
    async beforeDelete({ trx, ids }) {
      await trx.deleteFrom('sys_data_permission_data').where('biz_type', '=', BIZ.ROLE).where('biz_id', 'in', ids).execute()
    },
  })

  defineRoute(app, {
    method: 'GET',
    url: '/system/data/permission/model/detail',
    access: ANY_KEY,
    handler: async ({ query }) => {
      if (blank(query.modelId)) throw invalid('模型ID不能为空！', 'modelId')
      const modelId = Number(query.modelId)
      return seed.details.filter((d) => d.modelId === modelId).map(paletteNode)
    },
  })

  /**
   * With bizId, bizType and permissionType: the saved tree described for the designer (the ancestor's
   * use of this path). Without: the models (id = permission type, name).
   */
  defineRoute(app, {
    method: 'GET',
    url: '/system/data/permission/model/detail/query',
    access: ANY_KEY,
    handler: async ({ ctx, query }) => {
      if (blank(query.bizId) && blank(query.bizType) && blank(query.permissionType)) return seed.models
      return (await loadSaved(ctx, query)).nodes
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: '/system/data/permission/model/detail/preview',
    access: ANY_KEY,
    handler: async ({ body, query }) => {
      const input = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined
      const tree = input ? (input.permission ?? input.models ?? input.nodes) : body
      const modelRaw = input?.modelId ?? input?.permissionType ?? query.modelId ?? query.permissionType
      const modelId = blank(modelRaw) ? undefined : Number(modelRaw)
      const valid = validatePermissionTree(tree, details, { modelId })
      return renderPermissionSql(valid, details)
    },
  })

  const save = async ({ ctx, body }: { ctx: RequestContext; body: unknown }) => {
    const list = Array.isArray(body) ? body : [body]
    // Every item is checked before anything is written: one invalid tree stops the whole save.
    const items = list.map((raw) => parseSaveItem(services, ctx, raw))
    await inTransaction(ctx.db, async (trx) => {
      for (const item of items) await checkTargets(trx, item)
      const time = now()
      for (const item of items) {
        const permission = JSON.stringify(item.tree)
        for (const bizId of item.bizIds) {
          const id = recordId(item.bizType, item.permissionType, bizId)
          if (!item.tree.length) {
            await trx.deleteFrom('sys_data_permission_data').where('id', '=', id).execute()
            continue
          }
          await trx
            .insertInto('sys_data_permission_data')
            .values({
              id,
              biz_id: bizId,
              biz_type: item.bizType,
              permission_type: item.permissionType,
              permission,
              ...auditColumns(ctx),
            })
            .onConflict((oc) =>
              oc.column('id').doUpdateSet({ permission, update_by: ctx.name, update_by_id: ctx.userId, update_time: time }),
            )
            .execute()
        }
      }
      await writeOpLog(trx, ctx, '设置数据权限', OpLogType.OTHER, items.map(({ bizIds, bizType, permissionType }) => ({ bizIds, bizType, permissionType })))
    })
    return null
  }
  for (const url of ['/system/data/permission/data', '/system/data/permission/data/saveData'])
    defineRoute(app, { method: 'POST', url, access: ANY_KEY, handler: save })

  defineRoute(app, {
    method: 'GET',
    url: '/system/data/permission/data/queryByBizId',
    access: ANY_KEY,
    handler: async ({ ctx, query }) => {
      const saved = await loadSaved(ctx, query)
      return { bizId: saved.bizId, bizType: saved.bizType, permissionType: saved.permissionType, permission: saved.permission, nodes: saved.nodes }
    },
  })

  async function checkTargets(trx: Db, item: SaveItem) {
    const target = TARGET[item.bizType]
    const rows = await trx.selectFrom(target.table).select(['id']).where('id', 'in', item.bizIds).execute()
    if (rows.length !== item.bizIds.length) throw invalid(target.missing, 'bizIds')
    if (item.bizType === BIZ.ROLE) {
      const admin = await trx
        .selectFrom('sys_role')
        .select('id')
        .where('id', 'in', item.bizIds)
        .where('permission', '=', ADMIN_PERMISSION)
        .executeTakeFirst()
      if (admin) throw invalid(`权限【${ADMIN_PERMISSION}】为内置权限，不允许设置数据权限！`, 'bizIds')
    }
  }

  async function loadSaved(ctx: RequestContext, query: Record<string, unknown>) {
    if (blank(query.bizId)) throw invalid('业务ID不能为空！', 'bizId')
    const bizId = String(query.bizId).trim()
    const bizType = enumCode(services, 'DATA_PERMISSION_BIZ_TYPE', query.bizType, '业务类型不能为空！', '业务类型格式错误！', 'bizType')
    const permissionType = enumCode(services, 'DATA_PERMISSION_TYPE', query.permissionType, '权限类型不能为空！', '权限类型格式错误！', 'permissionType')
    if (!hasPermission(ctx, [KEY_OF_BIZ[bizType]])) throw forbidden()
    const row = await ctx.db
      .selectFrom('sys_data_permission_data')
      .select(['permission'])
      .where('id', '=', recordId(bizType, permissionType, bizId))
      .executeTakeFirst()
    const permission = typeof row?.permission === 'string' ? row.permission : '[]'
    let nodes: unknown[] = []
    try {
      nodes = describeTree(validatePermissionTree(permission, details, { modelId: permissionType }), details)
    } catch (error) {
      // A tree saved before a model detail was removed: show what can be shown, the designer re-validates.
      if (!(error instanceof BizError)) throw error
      let parsed: unknown = []
      try {
        parsed = JSON.parse(permission)
      } catch {
        parsed = []
      }
      nodes = Array.isArray(parsed) ? describeTree(parsed as PermissionNode[], details) : []
    }
    return { bizId, bizType, permissionType, permission, nodes }
  }
}

/* ---------- query time ---------- */

/** Department ids of a user and, through the department tree, those above and below them. */
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
  services: Services,
  db: Db,
  ctx: RequestContext,
  permissionType: number,
  aliases: Readonly<Record<string, string>>,
  references: Readonly<Record<string, { table: string; key: string }>> = {},
): Promise<RawBuilder<SqlBool> | undefined> {
  const user = services.registry.get('user')
  const link = linkTable(user, user.byName.get('deptIds') as FieldModel)
  const enabled = services.codec.toColumn(services.registry.get('role').byName.get('available') as FieldModel, true)
  // One statement (it runs before every list of a restricted entity): the user's departments, and the
  // saved trees of the user's enabled roles, departments and the user, read fresh every time. Named on
  // PostgreSQL: planning its sub-selects cost more than running them (db/prepared-statements.ts). Its
  // text and values follow from the type and the user: built and compiled once (compiledOnce).
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
              eb.selectFrom('sys_user_role as ur').innerJoin('sys_role as r', 'r.id', 'ur.role_id').select('r.id').where('ur.user_id', '=', ctx.userId).where('r.available', '=', enabled),
            ),
          ]),
          eb.and([eb('d.biz_type', '=', BIZ.DEPT), eb('d.biz_id', 'in', eb.selectFrom(link).select('ref_id').where('owner_id', '=', ctx.userId))]),
          eb.and([eb('d.biz_type', '=', BIZ.USER), eb('d.biz_id', '=', ctx.userId)]),
        ]),
      )
      .unionAll(
        db
          .selectFrom(link)
          .select([sql<string | null>`null`.as('id'), sql<number | null>`null`.as('biz_type'), sql<string | null>`null`.as('biz_id'), sql<string | null>`null`.as('permission'), 'ref_id as dept_id'])
          .where('owner_id', '=', ctx.userId),
      )
  const rows = await executePrepared(db, compiledOnce(db, `data-permission:${permissionType}:${ctx.userId}`, read))
  const mine = rows.filter((r) => r.dept_id != null).map((r) => String(r.dept_id))
  // A tree counts only under the id its target gives it (recordId), as saveData stores it.
  const saved = rows
    .filter((r) => r.id != null && String(r.id) === recordId(Number(r.biz_type), permissionType, String(r.biz_id)))
    .map((r) => ({ id: String(r.id), permission: String(r.permission) }))
    .sort((a, b) => a.id.localeCompare(b.id))
  if (!saved.length) return undefined
  const vars = await deptVars(db, mine)
  const schema = services.databases.schemaOf(ctx.tenantId)
  const qualified = (table: string) => (schema ? `${schema}.${table}` : table)
  const options = {
    dialect: services.databases.kind,
    aliases,
    vars,
    userDeptTable: qualified(link),
    references: Object.fromEntries(Object.entries(references).map(([placeholder, r]) => [placeholder, { table: qualified(r.table), key: r.key }])),
  }
  return permissionPredicate(permissionType, saved, options)
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
): RawBuilder<SqlBool> | undefined {
  const key = JSON.stringify([permissionType, saved, options])
  if (predicates.has(key)) return predicates.get(key)
  const { details } = permissionModels()
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
