import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { registerProductStockRoutes } from './product-stock-routes.js'
import { registerStockLogRoutes } from './stock-log-routes.js'
import { registerSerialNumberRoutes } from './serial-number-routes.js'
import { registerProductStockDetails } from './product-stock-details.js'
import { registerWarehouseStock } from './warehouse-stock-route.js'

/**
 * 库存管理, the read side of the stock ledger (src/server/domain/stock/stock-ledger.ts): stock by product and
 * warehouse, the movement log, lots (inbound movements), a product's stock across warehouses, the stock of a document's lines in its
 * warehouse, and serial numbers. Stock itself changes only through the ledger, called by documents on approval: the stock
 * entities declare no `api`, so no generic write route exists for them.
 */
export function stockModule(app: FastifyInstance, services: Services): void {
  registerProductStockRoutes(app, services)
  registerStockLogRoutes(app, services)
  registerProductStockDetails(app, services)
  registerSerialNumberRoutes(app, services)
  registerWarehouseStock(app, services)
}
