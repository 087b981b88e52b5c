import type { DocumentHooks } from '../engine/document-store.js'
import type { Services } from '../services.js'
import { payTypesOf, readPayTypes, removePayTypes, requirePayTypes, savePayTypes } from './agreed-payments.js'
import { completeSaleLines } from './sale-lines.js'

/** Sale order rules beyond the engine: original price/discount defaults and agreed payments (as purchase orders). */
export function saleOrderHooks(services: Services): DocumentHooks {
  return {
    async prepare({ lines }) {
      completeSaleLines(lines)
    },
    async saved({ trx, ctx, id, header, body }) {
      await savePayTypes(trx, ctx, id, readPayTypes(services.registry, body, String(header.totalAmount)))
    },
    async release({ trx, id }) {
      await removePayTypes(trx, id)
    },
    async beforeApprove({ trx, id, header }) {
      await requirePayTypes(trx, id, header.totalAmount)
    },
    async decorate(db, _ctx, _doc, answer) {
      answer.payTypes = await payTypesOf(db, String(answer.id))
    },
  }
}
