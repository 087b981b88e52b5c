/**
 * The line table's quick-add box as a barcode scanner uses it: a code, then Enter. The product the
 * text names is the single match, or among several the one whose code or SKU code is exactly the text
 * (a code is often part of longer codes); none otherwise, and the clerk chooses from the list.
 */
export function quickMatch<T extends Record<string, unknown>>(found: readonly T[], text: string): T | undefined {
  const wanted = text.trim().toLowerCase()
  if (!wanted) return undefined
  if (found.length === 1) return found[0]
  const exact = found.filter((p) => [p.productCode, p.skuCode].some((c) => typeof c === 'string' && c.toLowerCase() === wanted))
  return exact.length === 1 ? exact[0] : undefined
}

/**
 * A product added again by the quick-add box: the line of that product added by hand (not one taken
 * from a source document, not a gift at price 0) gets one more; otherwise the new line starts at 1.
 */
export function addOrIncrement<T extends Record<string, unknown>>(
  rows: readonly T[],
  line: T,
  quantityField: string,
  isSameKind: (row: T) => boolean,
): T[] {
  const at = rows.findIndex((r) => String(r.productId) === String(line.productId) && isSameKind(r))
  if (at < 0) return [...rows, { ...line, [quantityField]: line[quantityField] ?? 1 }]
  return rows.map((r, i) => (i === at ? { ...r, [quantityField]: (Number(r[quantityField]) || 0) + 1 } : r))
}
