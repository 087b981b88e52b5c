import type { SelectQueryBuilder } from 'kysely'

/** Largest page a list answers. */
export const MAX_PAGE_SIZE = 500
/**
 * Largest page number a list reads: beyond it the page is simply empty. Keeps `(pageIndex - 1) × pageSize`
 * an exact integer that both databases take as OFFSET (`pageIndex=99999999999999999999` reads as 1e20).
 */
export const MAX_PAGE_INDEX = 1_000_000

const whole = (value: unknown, fallback: number) => {
  const n = Math.floor(Number(value ?? fallback))
  return Number.isFinite(n) && n >= 1 ? n : fallback
}

/** `pageIndex` and `pageSize` of a list request: whole numbers ≥ 1, the size at most `maxSize`, the index at most MAX_PAGE_INDEX. */
export function pageArgs(values: Record<string, unknown>, maxSize = MAX_PAGE_SIZE, defaultSize = 20) {
  const pageIndex = Math.min(MAX_PAGE_INDEX, whole(values.pageIndex, 1))
  const pageSize = Math.min(maxSize, whole(values.pageSize, defaultSize))
  return { pageIndex, pageSize }
}

/**
 * One page of `base` and the count of all its rows: `shape` picks the columns and the order of the page (a
 * stable order: ties broken by id), the count reads the same filtered rows.
 */
export async function pageOf<O>(
  base: SelectQueryBuilder<any, any, {}>,
  shape: (query: SelectQueryBuilder<any, any, {}>) => SelectQueryBuilder<any, any, O>,
  pageIndex: number,
  pageSize: number,
): Promise<{ totalCount: number; rows: O[] }> {
  const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst()
  const rows = await shape(base).limit(pageSize).offset((pageIndex - 1) * pageSize).execute()
  return { totalCount: Number((counted as { n?: unknown } | undefined)?.n ?? 0), rows }
}
