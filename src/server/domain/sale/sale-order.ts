import type { DocumentHooks } from '../../engine/document-store.js'
import type { Services } from '../../engine/services.js'
import { agreedPaymentHooks } from '../documents/agreed-payments.js'
import { completeSaleLines } from './sale-lines.js'

/** Sale order rules beyond the engine: original price/discount defaults and agreed payments (as purchase orders). */
export function saleOrderHooks(services: Services): DocumentHooks {
  return {
    ...agreedPaymentHooks(services),
    async prepare({ lines }) {
      completeSaleLines(lines)
    },
  }
}
