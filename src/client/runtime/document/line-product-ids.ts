/** The distinct products of the lines, in a stable order (the same set is the same request). */
export function lineProductIds(rows: readonly Record<string, unknown>[]): string[] {
  const ids = new Set<string>()
  for (const r of rows) if (typeof r.productId === 'string' && r.productId) ids.add(r.productId)
  return [...ids].sort()
}
