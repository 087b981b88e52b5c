import type { FastifyInstance } from 'fastify'
import type { Services } from '../../services.js'
import { settleItemSheetHooks } from '../../domain/settle-item-sheets.js'

/**
 * Settlement (spec 000 §7, domain-rules §2.7): the document hooks of fee, pre, check and settle sheets of
 * both sides (their families come from the files in schemas/documents), and the calls around them.
 */
export function settleModule(_app: FastifyInstance, services: Services): void {
  services.documentHooks.set('settleItemSheet', settleItemSheetHooks())
}
