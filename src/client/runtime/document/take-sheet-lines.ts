/**
 * The lines of a take sheet (库存盘点单) filled from its plan and its pre-take sheet (domain-rules
 * §2.6.2-3): the plan's products when the configuration shows them, then the counts of a pre-take
 * sheet (the number of its take status, only the plan's products for a plan with fixed products).
 */
type Line = Record<string, unknown>

/** A plan line (`GET /stock/take/plan/products`) as a take sheet line: the product, its snapshot, no count yet. */
export function lineFromPlan(planLine: Line): Line {
  const { id: _id, orderNo: _no, oriTakeNum: _o, takeNum: _t, totalInNum: _i, totalOutNum: _u, description: _d, planId: _p, ...product } = planLine
  return { ...product, takeNum: undefined }
}

/**
 * Puts a pre-take sheet's counts on the lines: a line of the same product gets the count; a product
 * not on the sheet yet is added from the pre-take sheet's own line (with its product data), if known.
 */
export function mergePreCounts<T extends Line>(
  rows: readonly T[],
  counts: readonly { productId: string; takeNum: number | null }[],
  preLines: readonly Line[],
  newRow: (product: Line) => T,
): T[] {
  const out = rows.map((r) => ({ ...r }))
  for (const c of counts) {
    const at = out.findIndex((r) => String(r.productId) === c.productId)
    if (at >= 0) out[at] = { ...out[at], takeNum: c.takeNum ?? undefined }
    else {
      const product = preLines.find((l) => String(l.productId) === c.productId)
      if (product) out.push({ ...newRow(product), takeNum: c.takeNum ?? undefined })
    }
  }
  return out
}
