import crypto from 'node:crypto'
import { invalid } from '../../platform/errors.js'
import { later, now } from '../../platform/clock.js'
import { newId } from '../../platform/ids.js'
import type { Channel } from '../../platform/code-sender.js'
import type { Services } from '../../services.js'

const PURPOSE_TEXT: Record<string, string> = { forget: '找回密码', login: '手机号登录', bind: '绑定手机号' }

/** Issues a six-digit code valid for five minutes, replacing any earlier one for the same target. */
export async function issueCode(services: Services, tenantId: string, key: string, purpose: string, channel: Channel, address: string) {
  const db = services.databases.platform
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0')
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sys_verify_code').where('tenant_id', '=', tenantId).where('target', '=', key).where('purpose', '=', purpose).execute()
    await trx.insertInto('sys_verify_code').values({ id: newId(), tenant_id: tenantId, target: key, purpose, code, expire_time: later(5), create_time: now() }).execute()
  })
  await services.sender.send(channel, address, code, PURPOSE_TEXT[purpose] ?? purpose)
}

/** Checks and spends a code; a wrong code does not spend it, an expired one is gone. */
export async function consumeCode(services: Services, tenantId: string, key: string, purpose: string, input: unknown) {
  const code = typeof input === 'string' ? input.trim() : ''
  if (!code) throw invalid('请输入验证码', 'captcha')
  const db = services.databases.platform
  const row = await db
    .selectFrom('sys_verify_code')
    .select(['id', 'code', 'expire_time'])
    .where('tenant_id', '=', tenantId)
    .where('target', '=', key)
    .where('purpose', '=', purpose)
    .executeTakeFirst()
  if (!row || String(row.expire_time) < now()) throw invalid('验证码已过期，请重新获取', 'captcha')
  if (String(row.code) !== code) throw invalid('验证码错误', 'captcha')
  await db.deleteFrom('sys_verify_code').where('id', '=', row.id).execute()
}
