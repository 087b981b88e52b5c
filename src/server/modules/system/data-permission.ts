import { auditColumns } from '../../platform/audit-columns.js'
import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { dataPermission, type PermissionModelRow } from '../../../shared/contracts/system.js'
import { defineCallRoute, schemaAnswer } from '../../platform/call-routes.js'
import type { Db } from '../../db/dialect.js'
import { SCHEMAS_DIR } from '../../engine/entity-registry.js'
import { defineRoute } from '../../platform/routes.js'
import { BizError, forbidden, invalid } from '../../platform/errors.js'
import { inTransaction } from '../../platform/db-tx.js'
import { now } from '../../platform/clock.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import { ADMIN_PERMISSION } from '../../platform/permissions.js'
import { hasPermission, type RequestContext } from '../../platform/request-context.js'
import { recordId, type DataPermissionSetup } from '../../platform/data-permission-filter.js'
import { linkTable } from '../../engine/entity-tables.js'
import {
  detailMap,
  parseModelSeed,
  renderPermissionSql,
  validatePermissionTree,
  type ModelDetail,
  type ModelSeed,
  type PermissionNode,
} from '../../platform/data-permission-sql.js'
import {
  DATA_PERMISSION_BIZ_TYPE as BIZ,
  DATA_PERMISSION_CALC_TYPE as CALC,
  DATA_PERMISSION_NODE_TYPE as NODE,
} from '../../../shared/generated/enum-codes.js'
import type { FieldModel } from '../../../shared/metadata/entity-model.js'
import type { Services } from '../../engine/services.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/** Who may set data permissions of each target (menu buttons 角色/用户数据权限, 部门权限). */
const KEY_OF_BIZ: Record<number, string> = {
  [BIZ.ROLE]: PERMISSION.system.role.dataPermission,
  [BIZ.DEPT]: PERMISSION.system.dept.permission,
  [BIZ.USER]: PERMISSION.system.user.dataPermission,
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

  defineCallRoute(app, dataPermission.palette, {
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
  defineCallRoute(app, dataPermission.models, {
    access: ANY_KEY,
    handler: async ({ ctx, query }) => {
      if (blank(query.bizId) && blank(query.bizType) && blank(query.permissionType)) return schemaAnswer<PermissionModelRow[]>(seed.models)
      return schemaAnswer<PermissionModelRow[]>((await loadSaved(ctx, query)).nodes)
    },
  })

  defineCallRoute(app, dataPermission.preview, {
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
    // This process drops what it kept at once; the others when the trigger's notification reaches them.
    services.permissions.invalidate()
    return null
  }
  for (const url of ['/system/data/permission/data', '/system/data/permission/data/saveData'])
    defineRoute(app, { method: 'POST', url, access: ANY_KEY, handler: save })

  defineCallRoute(app, dataPermission.saved, {
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

/** What the query-time filter (platform/data-permission-filter.ts) needs, from the entity files of users and roles. */
export function dataPermissionSetup(services: Services): DataPermissionSetup {
  const user = services.registry.get('user')
  return {
    kind: services.databases.kind,
    schemaOf: (tenantId) => services.databases.schemaOf(tenantId),
    userDeptTable: linkTable(user, user.byName.get('deptIds') as FieldModel),
    enabledRole: services.codec.toColumn(services.registry.get('role').byName.get('available') as FieldModel, true),
    models: permissionModels,
    ofUser: (tenantId, userId, what, load) => services.permissions.ofUser(tenantId, userId, what, load),
  }
}
