import type { Kysely } from 'kysely'

/**
 * Rows of metadata-described tables are shaped by the entity at run time, so the database type is an
 * open record. Typed access lives in the entity codec, not in Kysely's generics.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Db = Kysely<any>

export type DbKind = 'sqlite' | 'postgres'
