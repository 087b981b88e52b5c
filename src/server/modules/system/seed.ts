import fs from 'node:fs'
import path from 'node:path'
import type { Db } from '../../db/dialect.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { MenuSeed, Menu } from '../../../shared/generated/menu.js'
import { SCHEMAS_DIR } from '../../engine/entity-registry.js'
import { inTransaction } from '../../platform/db-tx.js'
import { now } from '../../platform/clock.js'
import { newId } from '../../platform/ids.js'
import { hashPassword } from '../../platform/passwords.js'
import type { Services } from '../../engine/services.js'

/** The operator tenant of the seed (ancestor: 1000 测试租户); it manages the platform. */
export const OPERATOR_TENANT_ID = '1000'

interface TreeSeed {
  code: string
  name: string
  children?: TreeSeed[]
}

interface DefaultsSeed {
  modules: { id: number | string; name: string }[]
  tenant: { id: string; name: string }
  departments: TreeSeed[]
  positions: { code: string; name: string }[]
  payTypes: { code: string; name: string; recText?: boolean }[]
  stockAdjustReasons: { code: string; name: string }[]
  parameters: { key: string; value: unknown; description?: string }[]
  roles: { code: string; name: string; permission: string }[]
  admin: { code: string; name: string; username: string; email?: string; telephone?: string }
  /** The dictionaries entity fields declare (`dictionary`), with their first items. */
  dictionaries: { code: string; name: string; description?: string; items: string[] }[]
}

const readSeed = <T>(name: string): T => JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'seed', name), 'utf8')) as T
export const defaultsSeed = () => readSeed<DefaultsSeed>('defaults.json')

/** A seeded parameter as a sys_parameter record (values are text). */
const parameterRow = (p: DefaultsSeed['parameters'][number]) => ({ pKey: p.key, pValue: typeof p.value === 'string' ? p.value : JSON.stringify(p.value), description: p.description })

/** Inserts seed rows through the entity's codec (no op log: nobody did it). */
async function insertRows(services: Services, db: Db, entity: EntityModel, rows: Record<string, unknown>[]) {
  const time = now()
  for (const values of rows) {
    const withDefaults = { ...values }
    for (const f of entity.fields) if (withDefaults[f.name] === undefined && f.default !== undefined) withDefaults[f.name] = f.default
    await db
      .insertInto(entity.table)
      .values({
        ...services.codec.toRow(withDefaults, entity.fields),
        id: (values.id as string | undefined) ?? newId(),
        create_by: '系统',
        create_by_id: 'system',
        create_time: time,
        update_by: '系统',
        update_by_id: 'system',
        update_time: time,
      })
      .execute()
  }
}

export async function seedPlatform(services: Services): Promise<void> {
  const db = services.databases.platform
  const seed = defaultsSeed()
  const existing = await db.selectFrom('tenant').select('id').executeTakeFirst()
  if (existing) return
  await inTransaction(db, async (trx) => {
    await insertRows(services, trx, services.registry.get('module'), seed.modules.map((m) => ({ id: String(m.id), name: m.name })))
    await insertRows(services, trx, services.registry.get('tenant'), [{ id: seed.tenant.id, name: seed.tenant.name, available: true }])
    const time = now()
    for (const m of seed.modules)
      await trx.insertInto('sys_module_tenant').values({ tenant_id: seed.tenant.id, module_id: String(m.id), create_time: time }).execute()
  })
}

function flattenMenus(menus: Menu[], parentId: string | null, moduleId: number | undefined, out: Record<string, unknown>[]) {
  for (const m of menus) {
    const module = m.module ?? moduleId
    out.push({
      id: m.id,
      code: m.id,
      title: m.title,
      name: m.title,
      parentId,
      display: m.display,
      componentType: m.componentType ?? 0,
      component: m.component ?? null,
      requestParam: m.requestParam ?? null,
      path: m.path ?? null,
      icon: m.icon ?? null,
      permission: m.permission ?? null,
      hidden: m.hidden ?? false,
      noCache: m.noCache ?? false,
      moduleId: module ?? null,
      available: true,
    })
    flattenMenus(m.children ?? [], m.id, module, out)
  }
  return out
}

function flattenTree(nodes: TreeSeed[], parentId: string | null, out: Record<string, unknown>[]) {
  for (const n of nodes) {
    const id = newId()
    out.push({ id, code: n.code, name: n.name, parentId, available: true })
    flattenTree(n.children ?? [], id, out)
  }
  return out
}

/**
 * A new tenant's starting data: the admin role and user, the whole menu tree, departments,
 * positions, pay types, adjust reasons and parameters. Runs once, when the tenant has no user.
 */
export async function seedTenant(services: Services, tenantId: string, _name: string): Promise<void> {
  const db = services.databases.tenant(tenantId)
  if (await db.selectFrom('sys_user').select('id').executeTakeFirst()) {
    await addNewSeedMenus(services, db)
    await addSeedParameters(services, db)
    return addSeedDictionaries(services, db)
  }
  const seed = defaultsSeed()
  const { registry } = services
  const password = await hashPassword(services.config.adminPassword)
  await inTransaction(db, async (trx) => {
    const roleId = newId()
    const userId = newId()
    await insertRows(services, trx, registry.get('role'), seed.roles.map((r, i) => ({ ...r, id: i === 0 ? roleId : newId(), available: true })))
    await insertRows(services, trx, registry.get('user'), [{ ...seed.admin, id: userId, gender: 0, available: true, lockStatus: false }])
    await trx.updateTable('sys_user').set({ password }).where('id', '=', userId).execute()
    await trx.insertInto('sys_user_role').values({ user_id: userId, role_id: roleId, create_time: now() }).execute()
    await insertRows(services, trx, registry.get('menu'), flattenMenus(readSeed<MenuSeed>('menus.json').menus, null, undefined, []))
    await insertRows(services, trx, registry.get('dept'), flattenTree(seed.departments, null, []))
    await insertRows(services, trx, registry.get('position'), seed.positions.map((p) => ({ ...p, available: true })))
    await insertRows(services, trx, registry.get('payType'), seed.payTypes.map((p) => ({ ...p, available: true })))
    await insertRows(services, trx, registry.get('stockAdjustReason'), seed.stockAdjustReasons.map((r) => ({ ...r, available: true })))
    await insertRows(
      services,
      trx,
      registry.get('parameter'),
      seed.parameters.map(parameterRow),
    )
  })
  await addSeedDictionaries(services, db)
}

/**
 * Parameters added to the seed after a tenant was created (e.g. approval.separate-duties) reach it at
 * the next start, with their default value; a parameter the tenant has keeps its value.
 */
async function addSeedParameters(services: Services, db: Db): Promise<void> {
  const parameter = services.registry.get('parameter')
  const have = new Set((await db.selectFrom(parameter.table).select('p_key').execute()).map((p) => String(p.p_key)))
  const missing = defaultsSeed().parameters.filter((p) => !have.has(p.key))
  if (missing.length)
    await inTransaction(db, (trx) =>
      insertRows(services, trx, parameter, missing.map(parameterRow)),
    )
}

/**
 * The seed's dictionaries (those entity fields offer as choices, e.g. 所属行业) that the tenant lacks,
 * by code, each with its items; a dictionary the tenant has keeps the admin's items. Runs at every start,
 * so a dictionary added to the seed reaches tenants made before it.
 */
async function addSeedDictionaries(services: Services, db: Db): Promise<void> {
  const { registry } = services
  const have = new Set((await db.selectFrom(registry.get('dic').table).select('code').execute()).map((d) => String(d.code)))
  const missing = defaultsSeed().dictionaries.filter((d) => !have.has(d.code))
  if (!missing.length) return
  await inTransaction(db, async (trx) => {
    for (const dic of missing) {
      const dicId = newId()
      await insertRows(services, trx, registry.get('dic'), [{ id: dicId, code: dic.code, name: dic.name, description: dic.description, available: true }])
      await insertRows(
        services,
        trx,
        registry.get('dicItem'),
        dic.items.map((name, i) => ({ dicId, code: String(i + 1).padStart(3, '0'), name, orderNo: i + 1, available: true })),
      )
    }
  })
}

/**
 * Built-in menus added to the seed after a tenant was created (e.g. 重置密码) reach that tenant on the
 * next start: seed menus whose id the tenant lacks are inserted under their parent, the way ERPs sync
 * their built-in menus on upgrade. A built-in menu an admin deleted therefore comes back; disable it
 * instead. Nothing else of the tenant's menu tree is touched.
 */
async function addNewSeedMenus(services: Services, db: Db): Promise<void> {
  const seeded = flattenMenus(readSeed<MenuSeed>('menus.json').menus, null, undefined, [])
  const existing = new Set((await db.selectFrom('sys_menu').select('id').execute()).map((m) => String(m.id)))
  // Parents come before their children in the flattened seed, so a new branch inserts whole.
  const missing = seeded.filter((m) => !existing.has(String(m.id)))
  if (missing.length) await inTransaction(db, (trx) => insertRows(services, trx, services.registry.get('menu'), missing))
}
