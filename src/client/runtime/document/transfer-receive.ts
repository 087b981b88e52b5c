import { tr } from '../../i18n/use-tr.js'

/**
 * One receipt of a warehouse transfer (`PATCH /stock/transfer/sc/receive`, domain-rules §2.5): per line
 * the quantity still to receive, and the products of this receipt from what was typed.
 */
export interface TransferLine {
  productId: string
  transferNum: number
  receiveNum?: number | null
}

export const remainingOf = (line: TransferLine) => Math.max(0, Number(line.transferNum) - Number(line.receiveNum ?? 0))

/**
 * The receipt body's products: lines with a positive whole quantity typed, in line order. Answers the
 * first problem instead when a quantity is not a whole number or exceeds what is still open.
 */
export function receiptProducts(
  lines: readonly (TransferLine & { productName?: unknown })[],
  typed: Readonly<Record<string, unknown>>,
): { products: { productId: string; receiveNum: number }[] } | { error: string } {
  const products: { productId: string; receiveNum: number }[] = []
  for (const [i, line] of lines.entries()) {
    const raw = typed[line.productId]
    if (raw === undefined || raw === null || raw === '') continue
    const n = Number(raw)
    if (!Number.isSafeInteger(n) || n < 0) return { error: tr(`第${i + 1}行商品本次收货数量必须为不小于0的整数！`) }
    if (n > remainingOf(line)) return { error: tr(`第${i + 1}行商品本次收货数量不能大于待收货数量${remainingOf(line)}！`) }
    if (n > 0) products.push({ productId: line.productId, receiveNum: n })
  }
  if (!products.length) return { error: tr('请输入本次收货数量！') }
  return { products }
}
