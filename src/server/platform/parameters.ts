import type { Db } from '../db/dialect.js'
import type { TenantSettings } from './settings-cache.js'

/** Every parameter of the tenant, read once, as its request's kept reads keep it. */
const allParameters = async (db: Db): Promise<Map<string, string | null>> =>
  new Map((await db.selectFrom('sys_parameter').select(['p_key', 'p_value']).execute()).map((r) => [String(r.p_key), r.p_value == null ? null : String(r.p_value)]))

/**
 * A system parameter (sys_parameter, maintained at /system/parameter) as text, or the fallback. With a
 * request's kept reads (`ctx.settings`) the table is read once and kept as the configurations are (its entity
 * file declares it `kept`, which gives the table the trigger that tells every process of a change).
 */
export async function parameter(db: Db, key: string, fallback: string, settings?: TenantSettings): Promise<string> {
  if (settings) return (await settings.read('sys_parameter', () => allParameters(db))).get(key) ?? fallback
  const row = await db.selectFrom('sys_parameter').select('p_value').where('p_key', '=', key).executeTakeFirst()
  return row?.p_value == null ? fallback : String(row.p_value)
}

export const parameterFlag = async (db: Db, key: string, fallback: boolean, settings?: TenantSettings) =>
  ['true', '1', 'on', 'yes'].includes((await parameter(db, key, String(fallback), settings)).toLowerCase())
