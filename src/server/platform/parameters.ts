import type { Db } from '../db/dialect.js'

/** A system parameter (sys_parameter, maintained at /system/parameter) as text, or the fallback. */
export async function parameter(db: Db, key: string, fallback: string): Promise<string> {
  const row = await db.selectFrom('sys_parameter').select('p_value').where('p_key', '=', key).executeTakeFirst()
  return row?.p_value == null ? fallback : String(row.p_value)
}

export const parameterFlag = async (db: Db, key: string, fallback: boolean) =>
  ['true', '1', 'on', 'yes'].includes((await parameter(db, key, String(fallback))).toLowerCase())
