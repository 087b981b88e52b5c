import { defineCall } from './call.js'

/** The delivery of a logistics sheet (`PUT /logistics/sheet/delivery`). */
export type Delivery = { id: string; logisticsNo?: string; [field: string]: unknown }

export const logistics = {
  deliver: defineCall<Delivery, null>('PUT', '/logistics/sheet/delivery'),
}
