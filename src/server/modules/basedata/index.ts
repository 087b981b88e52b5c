import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { registerProductHooks } from './product-hooks.js'
import { registerPolyHooks } from './product-poly.js'
import { registerPropertyHooks } from './product-property.js'
import { registerPayTypeLogo } from './paytype-logo.js'
import { registerRegionSelector } from './region.js'
import { registerPayTypeOrderSelector } from './paytype-order-selector.js'
import { registerAddressHooks } from './address-hooks.js'

/**
 * Base-data rules beyond the generic family. The generic routes (registered before this module) stay
 * the only `/basedata/product…` create/modify/get calls; what an entity file cannot say runs in entity
 * hooks inside their transaction:
 * - `product`: bundle components and their price rule, property values, SKU category/brand;
 * - `productPoly`: sale-property groups and the SKU lines of a SPU;
 * - `productProperty` / `productPropertyItem`: values, scope, change rules;
 * - `address`: its owner exists; one default address per owner and address type;
 * plus the extra calls `GET /basedata/product/poly/skus`, `GET /basedata/product/property/modelor/category`,
 * `POST /basedata/paytype/upload/logo`, the city picker and the picker of orders' agreed payments.
 */
export function basedataModule(app: FastifyInstance, services: Services): void {
  registerProductHooks(services)
  registerPolyHooks(app, services)
  registerPropertyHooks(app, services)
  registerPayTypeLogo(app, services)
  registerRegionSelector(app, services)
  registerPayTypeOrderSelector(app, services)
  registerAddressHooks(services)
}
