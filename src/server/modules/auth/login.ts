import crypto from 'node:crypto'
import { sql } from 'kysely'
import type { Db } from '../../db/dialect.js'
import { invalid } from '../../platform/errors.js'
import { later, now, today } from '../../platform/clock.js'
import { newId } from '../../platform/ids.js'
import { verifyPassword } from '../../platform/passwords.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import type { Services } from '../../engine/services.js'
import { loadSvgCaptcha } from '../../platform/heavy-modules.js'

export const MAX_LOGIN_FAILURES = 5

export interface LoginUser {
  id: string
  name: string
  username: string
  password: string | null
  available: unknown
  lock_status: unknown
}

const truthy = (v: unknown) => v === true || v === 1 || v === '1'

export async function newCaptcha(platform: Db): Promise<{ sn: string; image: string }> {
  const captcha = (await loadSvgCaptcha()).create({ size: 4, noise: 2, ignoreChars: '0oO1ilI', width: 120, height: 40 })
  const sn = newId()
  await platform.deleteFrom('sys_captcha').where('expire_time', '<', now()).execute()
  await platform.insertInto('sys_captcha').values({ sn, code: captcha.text.toLowerCase(), expire_time: later(5), create_time: now() }).execute()
  return { sn, image: `data:image/svg+xml;base64,${Buffer.from(captcha.data).toString('base64')}` }
}

/** Captchas are single use: the row is deleted whether the answer was right or not. */
export async function checkCaptcha(platform: Db, sn: unknown, code: unknown): Promise<void> {
  if (typeof sn !== 'string' || !sn || typeof code !== 'string' || !code.trim()) throw invalid('请输入验证码', 'captcha')
  const row = await platform.selectFrom('sys_captcha').select(['code', 'expire_time']).where('sn', '=', sn).executeTakeFirst()
  await platform.deleteFrom('sys_captcha').where('sn', '=', sn).execute()
  if (!row || String(row.expire_time) < now()) throw invalid('验证码已过期，请重新获取', 'captcha')
  if (String(row.code) !== code.trim().toLowerCase()) throw invalid('验证码错误', 'captcha')
}

/**
 * The tenant a sign-in addresses: the given id, or the only tenant when there is one; it must be
 * enabled.
 */
export async function signInTenant(services: Services, tenantId?: string): Promise<string> {
  const tenants = await services.databases.platform.selectFrom('tenant').select(['id', 'available']).execute()
  const id = tenantId ?? (tenants.length === 1 ? String(tenants[0].id) : undefined)
  if (!id) throw invalid('请按“租户ID@用户名”的格式输入用户名', 'username')
  const tenant = tenants.find((t) => String(t.id) === id)
  if (!tenant) throw invalid('租户不存在！', 'username')
  if (!truthy(tenant.available)) throw invalid('租户已停用，无法登录！', 'username')
  return id
}

/** `{tenantId}@{username}` when several tenants exist; otherwise the only tenant. */
export async function resolveTenant(services: Services, input: string): Promise<{ tenantId: string; username: string }> {
  const at = input.indexOf('@')
  if (at > 0) {
    const prefix = input.slice(0, at)
    const known = await services.databases.platform.selectFrom('tenant').select('id').where('id', '=', prefix).executeTakeFirst()
    if (known) return { tenantId: await signInTenant(services, prefix), username: input.slice(at + 1) }
  }
  return { tenantId: await signInTenant(services), username: input }
}

export async function findUser(db: Db, column: 'username' | 'telephone', value: string): Promise<LoginUser | undefined> {
  return (await db
    .selectFrom('sys_user')
    .select(['id', 'name', 'username', 'password', 'available', 'lock_status'])
    .where(column, '=', value)
    .executeTakeFirst()) as LoginUser | undefined
}

export const USER_LOCKED = '用户已锁定，无法登录！'
export const USER_DISABLED = '用户已停用，无法登录！'
const failureText = (failures: number) => `您已经登录失败${failures}次，您还可以尝试${MAX_LOGIN_FAILURES - failures}次！`

export function assertNotLocked(user: LoginUser): void {
  if (truthy(user.lock_status)) throw invalid(USER_LOCKED, 'username')
}

export function assertCanLogin(user: LoginUser): void {
  assertNotLocked(user)
  if (!truthy(user.available)) throw invalid(USER_DISABLED, 'username')
}

/** The failure table's key column is 64 wide; a longer typed name (never a real account) is keyed by its digest. */
const failureKey = (username: string) => (username.length <= 64 ? username : crypto.createHash('sha256').update(username).digest('hex'))

/**
 * One more failure of (tenant, name, today), answered by the same statement: an upsert with
 * `failures + 1`, so parallel wrong passwords on several processes are all counted.
 */
async function countFailure(services: Services, tenantId: string, username: string): Promise<number> {
  const time = now()
  const row = await services.databases.platform
    .insertInto('sys_login_failure')
    .values({ tenant_id: tenantId, username: failureKey(username), day: today(), failures: 1, create_time: time })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'username', 'day']).doUpdateSet({ failures: sql`${sql.ref('sys_login_failure.failures')} + 1`, update_time: time }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow()
  return Number(row.failures)
}

/**
 * Password check with the daily failure counter: the 5th failure of a day locks the user and ends
 * their sessions. The counter lives in the platform database, keyed by tenant, user name and day.
 */
export async function checkPassword(services: Services, tenantId: string, user: LoginUser, password: string): Promise<void> {
  if (await verifyPassword(user.password, password)) {
    await services.databases.platform
      .deleteFrom('sys_login_failure')
      .where('tenant_id', '=', tenantId)
      .where('username', '=', user.username)
      .execute()
    return
  }
  const failures = await countFailure(services, tenantId, user.username)
  if (failures >= MAX_LOGIN_FAILURES) {
    await setLocked(services, services.databases.tenant(tenantId), user.id, true)
    await services.sessions.endUser(tenantId, [user.id])
    throw invalid(USER_LOCKED, 'password')
  }
  throw invalid(failureText(failures), 'password')
}

/**
 * A sign-in with a name that has no account answers exactly as a wrong password of a real one:
 * the same argon2 work (against a dummy hash), the same counter text from the same failure table,
 * and "locked" once five failures were reached on a day, as a real account stays locked.
 */
export async function rejectUnknownUser(services: Services, tenantId: string, username: string, password: string): Promise<never> {
  const locked = await services.databases.platform
    .selectFrom('sys_login_failure')
    .select('day')
    .where('tenant_id', '=', tenantId)
    .where('username', '=', failureKey(username))
    .where('failures', '>=', MAX_LOGIN_FAILURES)
    .executeTakeFirst()
  if (locked) throw invalid(USER_LOCKED, 'username')
  await verifyPassword(null, password)
  const failures = await countFailure(services, tenantId, username)
  if (failures >= MAX_LOGIN_FAILURES) throw invalid(USER_LOCKED, 'password')
  throw invalid(failureText(failures), 'password')
}

export async function openSession(services: Services, tenantId: string, user: LoginUser, ip: string, how: string) {
  const token = await services.sessions.create(tenantId, user.id, ip)
  await writeOpLog(services.databases.tenant(tenantId), { userId: user.id, name: user.name, ip }, how, OpLogType.AUTH)
  return token
}

async function setLocked(services: Services, db: Db, userId: string, locked: boolean) {
  const field = services.registry.get('user').byName.get('lockStatus')!
  await db.updateTable('sys_user').set({ [field.column]: services.codec.toColumn(field, locked), update_time: now() }).where('id', '=', userId).execute()
}

/** Clears the lock and today's failures (`/system/user/unlock`). */
export async function unlockUser(services: Services, tenantId: string, db: Db, userId: string): Promise<void> {
  const user = await db.selectFrom('sys_user').select(['username']).where('id', '=', userId).executeTakeFirst()
  if (!user) throw invalid('用户不存在！', 'id')
  await setLocked(services, db, userId, false)
  await services.databases.platform
    .deleteFrom('sys_login_failure')
    .where('tenant_id', '=', tenantId)
    .where('username', '=', String(user.username))
    .execute()
}
