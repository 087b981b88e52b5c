import type { DocumentHooks } from '../../engine/document-store.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { invalid } from '../../platform/errors.js'
import type { Services } from '../../engine/services.js'
import { retailPaymentDate } from '../sale/customer-terms.js'
import { followSaleSource } from '../sale/sale-lines.js'
import { followConfig, requireSingleFollowerUnlessMultiple, sourceLinkOf } from '../documents/source-link.js'
import { SettleStatus } from '../settle/settle-status.js'

/** Retail return (domain-rules §2.4): linked to a retail out sheet per the retail config; goods back at average cost (engine, biz 6). */
export function retailReturnHooks(services: Services): DocumentHooks {
  const link = sourceLinkOf(services.registry, 'retailReturn')
  return {
    async prepare(e) {
      const { config: cfg } = await followSaleSource(services, e, link)
      if (cfg.retailReturnRequireMember && isBlank('memberId' in e.header ? e.header.memberId : e.existing?.memberId)) throw invalid('会员不能为空', 'memberId')
      e.header.settleStatus = SettleStatus.UN_SETTLE
      e.header.paymentDate = retailPaymentDate(e.header.paymentDate)
    },
    async beforeApprove(e) {
      await requireSingleFollowerUnlessMultiple(services, e, link, await followConfig(services, e.trx, e.ctx, link))
    },
  }
}
