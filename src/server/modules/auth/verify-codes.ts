import crypto from 'node:crypto'
import dayjs from 'dayjs'
import { sql } from 'kysely'
import { invalid } from '../../platform/errors.js'
import { later, now } from '../../platform/clock.js'
import type { Channel } from '../../platform/code-sender.js'
import type { Services } from '../../engine/services.js'

const PURPOSE_TEXT: Record<string, string> = { forget: '找回密码', login: '手机号登录', bind: '绑定手机号' }

/** Wrong tries a code survives: the fifth wrong answer burns it. */
export const MAX_CODE_ATTEMPTS = 5
/** A new code for the same target at most once a minute and this many times in an hour. */
export const MAX_CODES_PER_HOUR = 5
const CODE_MINUTES = 5

export const CODE_WRONG = '验证码错误'
export const CODE_EXPIRED = '验证码已过期，请重新获取'
export const CODE_BURNED = `验证码错误已达${MAX_CODE_ATTEMPTS}次，验证码已失效，请重新获取`
export const CODE_TOO_SOON = '验证码发送过于频繁，请1分钟后再试'
export const CODE_HOURLY_LIMIT = `验证码每小时最多获取${MAX_CODES_PER_HOUR}次，请稍后再试`

const stamp = (d: dayjs.Dayjs) => d.format('YYYY-MM-DD HH:mm:ss')
const digest = (code: string) => crypto.createHash('sha256').update(code).digest()
/** The target column is 160 wide; a longer key (a typed name no account can have) is stored by its digest. */
const storedKey = (key: string) => (key.length <= 160 ? key : `sha256:${digest(key).toString('hex')}`)

/** Where a code goes; `null` when the target has no account: the row is kept (same limits, same answers) but nothing is sent. */
export type Delivery = { channel: Channel; address: string } | null

/**
 * Issues a six-digit code valid for five minutes for (tenant, key, purpose), replacing the earlier
 * one. Each step is one conditional statement on the row, so concurrent requests on several
 * processes cannot exceed the limits: insert-if-absent, else a guarded update that only passes when
 * the last code is a minute old and the hourly count allows another.
 */
export async function issueCode(services: Services, tenantId: string, typedKey: string, purpose: string, delivery: Delivery): Promise<void> {
  const db = services.databases.platform
  const key = storedKey(typedKey)
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0')
  // Without an account the row holds no digest: every answer is wrong, exactly as a wrong guess.
  const codeHash = delivery ? digest(code).toString('hex') : null
  const current = dayjs()
  const time = stamp(current)
  const minuteAgo = stamp(current.subtract(60, 'second'))
  const hourAgo = stamp(current.subtract(1, 'hour'))
  await db.deleteFrom('sys_verify_code').where('expire_time', '<', time).where('window_start', '<=', hourAgo).execute()
  const inserted = await db
    .insertInto('sys_verify_code')
    .values({
      tenant_id: tenantId,
      target: key,
      purpose,
      code_hash: codeHash,
      attempts: 0,
      expire_time: later(CODE_MINUTES),
      last_sent_time: time,
      window_start: time,
      sent_count: 1,
      create_time: time,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'target', 'purpose']).doNothing())
    .executeTakeFirst()
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    const updated = await db
      .updateTable('sys_verify_code')
      .set({
        code_hash: codeHash,
        attempts: 0,
        expire_time: later(CODE_MINUTES),
        last_sent_time: time,
        sent_count: sql`case when ${sql.ref('window_start')} <= ${hourAgo} then 1 else ${sql.ref('sent_count')} + 1 end`,
        window_start: sql`case when ${sql.ref('window_start')} <= ${hourAgo} then ${time} else ${sql.ref('window_start')} end`,
        update_time: time,
      })
      .where('tenant_id', '=', tenantId)
      .where('target', '=', key)
      .where('purpose', '=', purpose)
      .where('last_sent_time', '<=', minuteAgo)
      .where((eb) => eb.or([eb('window_start', '<=', hourAgo), eb('sent_count', '<', MAX_CODES_PER_HOUR)]))
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) === 0) {
      const row = await db
        .selectFrom('sys_verify_code')
        .select('last_sent_time')
        .where('tenant_id', '=', tenantId)
        .where('target', '=', key)
        .where('purpose', '=', purpose)
        .executeTakeFirst()
      throw invalid(row && String(row.last_sent_time) > minuteAgo ? CODE_TOO_SOON : CODE_HOURLY_LIMIT, 'captcha')
    }
  }
  // Sent in the background: the answer must not take longer for a real account than for none.
  if (delivery) services.sender.dispatch(delivery.channel, delivery.address, code, PURPOSE_TEXT[purpose] ?? purpose)
}

/**
 * Checks and spends a code. Every try first takes one attempt with a guarded increment (so parallel
 * guesses on several processes share the budget of five); the digests are compared in constant time;
 * the right code is spent by a second guarded statement, so it works once even when sent twice at
 * the same moment.
 */
export async function consumeCode(services: Services, tenantId: string, typedKey: string, purpose: string, input: unknown): Promise<void> {
  const key = storedKey(typedKey)
  const code = typeof input === 'string' ? input.trim() : ''
  if (!code) throw invalid('请输入验证码', 'captcha')
  const db = services.databases.platform
  const time = now()
  const tried = await db
    .updateTable('sys_verify_code')
    .set({ attempts: sql`${sql.ref('attempts')} + 1`, update_time: time })
    .where('tenant_id', '=', tenantId)
    .where('target', '=', key)
    .where('purpose', '=', purpose)
    .where('attempts', '<', MAX_CODE_ATTEMPTS)
    .where('expire_time', '>=', time)
    .returning(['code_hash', 'attempts'])
    .executeTakeFirst()
  if (!tried) {
    const row = await db
      .selectFrom('sys_verify_code')
      .select(['attempts', 'expire_time'])
      .where('tenant_id', '=', tenantId)
      .where('target', '=', key)
      .where('purpose', '=', purpose)
      .executeTakeFirst()
    const burned = row && String(row.expire_time) >= time && Number(row.attempts) >= MAX_CODE_ATTEMPTS
    throw invalid(burned ? CODE_BURNED : CODE_EXPIRED, 'captcha')
  }
  const stored = tried.code_hash ? Buffer.from(String(tried.code_hash), 'hex') : crypto.randomBytes(32)
  const given = digest(code)
  if (stored.length !== given.length || !crypto.timingSafeEqual(stored, given)) {
    throw invalid(Number(tried.attempts) >= MAX_CODE_ATTEMPTS ? CODE_BURNED : CODE_WRONG, 'captcha')
  }
  const spent = await db
    .updateTable('sys_verify_code')
    .set({ code_hash: null, expire_time: stamp(dayjs().subtract(1, 'second')), update_time: time })
    .where('tenant_id', '=', tenantId)
    .where('target', '=', key)
    .where('purpose', '=', purpose)
    .where('code_hash', '=', String(tried.code_hash))
    .executeTakeFirst()
  if (Number(spent.numUpdatedRows) === 0) throw invalid(CODE_EXPIRED, 'captcha')
}
