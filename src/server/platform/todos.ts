import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import type { Db } from '../db/dialect.js'
import { isPostgres } from '../db/exact-decimal.js'
import { now } from './clock.js'
import { ADMIN_PERMISSION } from './permissions.js'

/**
 * 待办 (spec 000 §3 Todo: title, createTime, jumpUrl, readed): rows the engine writes for a user when
 * something waits for them, each under a business key (`approve:<documentId>`, `qrtz-run:<runId>`…).
 * One row per (key, user): its id is derived from both, so writing it again refreshes it instead of
 * adding a second; when the thing no longer waits (the document was approved), its rows are closed.
 */
export interface NewTodo {
  key: string
  title: string
  jumpUrl: string
}

const SYSTEM = { name: '系统', id: 'system' }

export const todoId = (key: string, userId: string) => createHash('sha256').update(`todo\u0000${key}\u0000${userId}`).digest('hex').slice(0, 32)

/** A boolean column's value: integers on SQLite. */
export const flag = (trx: Db, v: boolean) => (isPostgres(trx) ? v : v ? 1 : 0)

/** Writes (or refreshes as unread) the todo for each user, in user id order (one lock order). */
export async function addTodos(trx: Db, userIds: readonly string[], todo: NewTodo): Promise<void> {
  const time = now()
  for (const userId of [...new Set(userIds)].sort()) {
    await trx
      .insertInto('sys_todo')
      .values({
        id: todoId(todo.key, userId),
        user_id: userId,
        biz_key: todo.key.slice(0, 200),
        title: todo.title.slice(0, 200),
        jump_url: todo.jumpUrl.slice(0, 500),
        readed: flag(trx, false),
        create_by: SYSTEM.name,
        create_by_id: SYSTEM.id,
        create_time: time,
        update_by: SYSTEM.name,
        update_by_id: SYSTEM.id,
        update_time: time,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({ title: todo.title.slice(0, 200), jump_url: todo.jumpUrl.slice(0, 500), readed: flag(trx, false), create_time: time, update_time: time }),
      )
      .execute()
  }
}

/** The thing behind `key` waits no more: its todos go, read or not. */
export async function closeTodos(trx: Db, key: string): Promise<void> {
  await closeTodosDelete(trx, key).execute()
}

/** The DELETE of closeTodos, not yet run (to be written with other statements, db/write-together.ts). */
export const closeTodosDelete = (trx: Db, key: string) => trx.deleteFrom('sys_todo').where('biz_key', '=', key)

/**
 * Enabled users who hold any of `keys` through an enabled role (a menu key of an enabled menu, or the
 * role permission `admin`), as loadGrants reads them.
 */
export async function usersHolding(trx: Db, keys: readonly string[]): Promise<string[]> {
  if (!keys.length) return []
  const yes = flag(trx, true)
  const rows = await trx
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .innerJoin('sys_user as u', 'u.id', 'ur.user_id')
    .select('ur.user_id')
    .distinct()
    .where('r.available', '=', yes)
    .where('u.available', '=', yes)
    .where((eb) =>
      eb.or([
        eb('r.permission', '=', ADMIN_PERMISSION),
        eb.exists(
          eb
            .selectFrom('sys_role_menu as rm')
            .innerJoin('sys_menu as m', 'm.id', 'rm.menu_id')
            .select(sql`1`.as('one'))
            .whereRef('rm.role_id', '=', 'r.id')
            .where('m.available', '=', yes)
            .where('m.permission', 'in', [...keys]),
        ),
      ]),
    )
    .execute()
  return rows.map((r) => String(r.user_id))
}

/** The path of the function menu whose key is `permission` (a list page), if the tenant has one. */
export async function menuPathOf(trx: Db, permission: string): Promise<string | undefined> {
  const row = await trx.selectFrom('sys_menu').select('path').where('permission', '=', permission).where('path', 'is not', null).orderBy('code').executeTakeFirst()
  return typeof row?.path === 'string' && row.path ? row.path : undefined
}
