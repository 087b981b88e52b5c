import type { PlanFlags, PlanHandling, PlanLine } from '../../../shared/contracts/stock.js'
/**
 * A stock-taking plan's line as the diff screens show it (domain-rules §2.6.6): the count the diff
 * handling will use, and its difference to the system quantity of the snapshot.
 */
/**
 * The count the server will settle when nothing is typed: the final count once handled, else the
 * counted quantity corrected by the moves during counting (autoChangeStock) or as counted.
 */
export function expectedTakeNum(line: PlanLine, flags: Pick<PlanFlags, 'autoChangeStock'>): number {
  if (line.takeNum !== null && line.takeNum !== undefined) return Number(line.takeNum)
  const counted = Number(line.oriTakeNum ?? 0)
  return flags.autoChangeStock ? counted - Number(line.totalInNum) + Number(line.totalOutNum) : counted
}

/** 盘盈 (positive) or 盘亏 (negative): the count minus the snapshot. */
export const diffOf = (takeNum: number, line: Pick<PlanLine, 'stockNum'>) => takeNum - Number(line.stockNum)

/** The body of `PATCH /stock/take/plan/handle`: the flags echoed as read, and one entry per line. */
export function handleBody(
  id: string,
  flags: PlanFlags,
  lines: readonly PlanLine[],
  typed: Readonly<Record<string, { takeNum?: unknown; description?: string }>>,
  description: string,
): PlanHandling {
  return {
    id,
    allowChangeNum: flags.allowChangeNum,
    autoChangeStock: flags.autoChangeStock,
    description,
    products: lines.map((l) => {
      const t = typed[l.productId] ?? {}
      const takeNum = flags.allowChangeNum && t.takeNum !== undefined && t.takeNum !== null && t.takeNum !== '' ? Number(t.takeNum) : expectedTakeNum(l, flags)
      return { productId: l.productId, takeNum, description: t.description ?? '' }
    }),
  }
}
