import type { Db } from '../db/dialect.js'
import type { Services } from '../engine/services.js'
import type { RequestContext } from '../platform/request-context.js'
import { forbidden } from '../platform/errors.js'
import { hasPermission } from '../platform/request-context.js'
import { operationKeys } from '../../shared/metadata/operation-keys.js'
import { GEN_CUSTOM_LIST_BTN_TYPE, MENU_COMPONENT_TYPE } from '../../shared/generated/enum-codes.js'
import type { Wire } from '../engine/record-codec.js'
import { CUSTOM_FORM, CUSTOM_LIST } from './custom-list-config.js'
import { CUSTOM_SELECTOR } from './custom-selector.js'
import { savedConfigCache } from './saved-config-cache.js'

export const CUSTOM_PAGE = 'genCustomPage'

/** The run-time objects of the low-code layer: what a menu (or another object) opens. */
export type RuntimeKind = 'list' | 'form' | 'page' | 'selector'

const ENTITY_OF: Record<RuntimeKind, string> = { list: CUSTOM_LIST, form: CUSTOM_FORM, page: CUSTOM_PAGE, selector: CUSTOM_SELECTOR }
const MENU_KIND: Record<number, RuntimeKind> = {
  [MENU_COMPONENT_TYPE.CUSTOM_LIST]: 'list',
  [MENU_COMPONENT_TYPE.CUSTOM_FORM]: 'form',
  [MENU_COMPONENT_TYPE.CUSTOM_PAGE]: 'page',
}

/**
 * Designers preview what they design and pick what they link: a list designer chooses selectors for
 * its conditions and forms for its buttons, a selector designer chooses a list.
 */
const DESIGNED_BY: Record<RuntimeKind, RuntimeKind[]> = {
  list: ['list', 'selector'],
  form: ['form', 'list'],
  page: ['page'],
  selector: ['selector', 'list'],
}

/** The designer keys (query, add, modify of the designing entity's family) that may run a kind. */
export function designerKeys(services: Services, kind: RuntimeKind): string[] {
  return DESIGNED_BY[kind].flatMap((k) => {
    const entity = services.registry.get(ENTITY_OF[k])
    return [...operationKeys(entity, 'query'), ...operationKeys(entity, 'create'), ...operationKeys(entity, 'modify')]
  })
}

type Reach = Record<RuntimeKind, Set<string>>

const ID_TOKEN = /[A-Za-z0-9_-]{1,64}/g
const MAX_PAGE_TOKENS = 2000

/** Selector ids of `CustomSelector` components anywhere in a form's Formily schema. */
function formSelectors(formConfig: unknown): string[] {
  let parsed: unknown = formConfig
  if (typeof formConfig === 'string') {
    try {
      parsed = JSON.parse(formConfig)
    } catch {
      return []
    }
  }
  const found: string[] = []
  const walk = (node: unknown, depth: number) => {
    if (!node || typeof node !== 'object' || depth > 40) return
    if (Array.isArray(node)) return node.forEach((n) => walk(n, depth + 1))
    const o = node as Record<string, unknown>
    if (o['x-component'] === 'CustomSelector') {
      const props = o['x-component-props'] as Record<string, unknown> | undefined
      if (props && typeof props.selectorId === 'string') found.push(props.selectorId)
    }
    for (const v of Object.values(o)) walk(v, depth + 1)
  }
  walk(parsed, 0)
  return found
}

/**
 * Every list, form, page and selector the caller's menus open, directly or through what those open: a
 * list opens the selectors of its conditions and the forms of its buttons, a selector its list, a form
 * the selectors of its fields, a page the lists and forms its script names. Kept per saved version of
 * the low-code configuration and the menus (saved-config-cache.ts) and per granted menus, so a run-time
 * call reads none of it while both stay.
 */
async function reachable(services: Services, ctx: RequestContext): Promise<Reach> {
  const grants = await services.permissions.grants(ctx.tenantId, ctx.db, ctx.userId)
  const menuIds = [...(grants?.menuIds ?? [])].sort()
  const menus = menuIds.join(',')
  const kept = await savedConfigCache(services).value(
    ctx,
    ctx.db,
    `reach:${ctx.userId}`,
    async () => ({ menus, reach: await reachFrom(services, ctx, menuIds) }),
    (k) => k.menus === menus,
  )
  return kept.reach
}

/** What `menuIds` reach, read now. */
async function reachFrom(services: Services, ctx: RequestContext, menuIds: string[]): Promise<Reach> {
  const reach: Reach = { list: new Set(), form: new Set(), page: new Set(), selector: new Set() }
  if (!menuIds.length) return reach
  const db = ctx.db
  const menus = await db
    .selectFrom('sys_menu')
    .select(['component_type', 'component'])
    .where('id', 'in', menuIds)
    .where('component_type', 'in', Object.keys(MENU_KIND).map(Number))
    .execute()
  const pending: [RuntimeKind, string][] = []
  const open = (kind: RuntimeKind, id: unknown) => {
    if (typeof id !== 'string' || !id || reach[kind].has(id)) return
    reach[kind].add(id)
    pending.push([kind, id])
  }
  for (const m of menus) {
    const kind = MENU_KIND[Number(m.component_type)]
    if (kind) open(kind, typeof m.component === 'string' ? m.component.trim() : m.component)
  }
  while (pending.length) {
    const batch = pending.splice(0)
    for (const kind of ['list', 'form', 'page', 'selector'] as const) {
      const ids = batch.filter(([k]) => k === kind).map(([, id]) => id)
      if (!ids.length) continue
      for (const row of await rowsOf(services, db, kind, ids)) {
        if (kind === 'list') {
          for (const q of arrayOf(row.queryParams)) open('selector', q.customSelectorId)
          for (const b of [...arrayOf(row.toolbars), ...arrayOf(row.handleColumns)])
            if (Number(b.btnType) === GEN_CUSTOM_LIST_BTN_TYPE.CUSTOM_FORM) open('form', b.btnConfig)
        } else if (kind === 'selector') {
          open('list', row.customListId)
        } else if (kind === 'form') {
          for (const id of formSelectors(row.formConfig)) open('selector', id)
        } else {
          const tokens = [...new Set(String(row.componentConfig ?? '').match(ID_TOKEN) ?? [])].slice(0, MAX_PAGE_TOKENS)
          if (!tokens.length) continue
          for (const target of ['list', 'form'] as const)
            for (const named of await rowsOf(services, db, target, tokens)) open(target, named.id)
        }
      }
    }
  }
  return reach
}

const arrayOf = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object') : []

async function rowsOf(services: Services, db: Db, kind: RuntimeKind, ids: string[]): Promise<Wire[]> {
  const entity = services.registry.get(ENTITY_OF[kind])
  const rows: Wire[] = []
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = await db.selectFrom(entity.table).selectAll().where('id', 'in', ids.slice(i, i + 500)).execute()
    rows.push(...chunk.map((r) => services.codec.fromRow(entity, r)))
  }
  return rows
}

/**
 * Refuses (403 无权限) a run-time call of a custom list, form, page or selector unless the caller is the
 * admin, holds a designer key of it, or is granted a menu that opens it (directly or through the
 * objects that menu opens). Checked before the object is read, so a refused caller learns nothing.
 */
export async function assertRuntimeAccess(services: Services, ctx: RequestContext, kind: RuntimeKind, id: unknown): Promise<void> {
  if (hasPermission(ctx, designerKeys(services, kind))) return
  if (typeof id === 'string' && id && (await reachable(services, ctx))[kind].has(id)) return
  throw forbidden()
}

/**
 * The items of a dictionary (`/system/dic/item/bydic`, `queryDicByName`) answer the dictionary's own
 * screens, the custom-list designers, a user whose menus open a custom list with a condition on
 * that dictionary (its query form offers the items), and anyone signed in for a dictionary an entity
 * field offers as its choices (`dictionary`: 所属行业, 客户来源), which every form of that field shows.
 */
export async function assertDictionaryAccess(services: Services, ctx: RequestContext, by: 'code' | 'name', value: string): Promise<void> {
  if (by === 'code' && services.registry.all().some((e) => e.fields.some((f) => f.dictionary === value))) return
  const dic = services.registry.get('dic')
  const item = services.registry.get('dicItem')
  const keys = [...operationKeys(dic, 'query'), ...operationKeys(item, 'create'), ...operationKeys(item, 'modify'), ...designerKeys(services, 'list')]
  if (hasPermission(ctx, keys)) return
  const reach = await reachable(services, ctx)
  if (value && reach.list.size) {
    const row = await ctx.db.selectFrom(dic.table).select('code').where(by, '=', value).executeTakeFirst()
    const code = row ? String(row.code) : undefined
    if (code) for (const list of await rowsOf(services, ctx.db, 'list', [...reach.list])) if (arrayOf(list.queryParams).some((q) => q.dataDicCode === code)) return
  }
  throw forbidden()
}
