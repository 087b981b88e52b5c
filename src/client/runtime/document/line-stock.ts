import { useMemo } from 'react'
import { warehouseStock } from '../../../shared/contracts/stock.js'
import { useCall } from '../../app/use-call.js'
import { lineProductIds } from './line-product-ids.js'

/**
 * The current stock of the lines' products in the warehouse `scId` (documents declaring `lineStock`):
 * one request for the whole table, made again when the warehouse or the set of products changes (a line
 * added); the previous figures stay shown while the next arrive. Undefined while nothing can be asked.
 */
export function useLineStock(rows: readonly Record<string, unknown>[], scId: string | undefined, enabled: boolean): ReadonlyMap<string, number> | undefined {
  const productIds = useMemo(() => lineProductIds(rows), [rows])
  const asking = enabled && Boolean(scId) && productIds.length > 0
  const { data } = useCall(asking && warehouseStock, { scId: scId ?? '', productIds }, { hideError: true, swr: { keepPreviousData: true } })
  return useMemo(() => (asking && data ? new Map(data.map((s) => [s.productId, s.stockNum])) : undefined), [asking, data])
}
