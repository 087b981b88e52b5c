import { CRM_REIMBURSE_STATUS, CRM_WORK_REPORT_TYPE } from '../../../shared/generated/enum-codes.js'
import { crmReports, type ReportType, type StatisParams, type Statis } from '../../../shared/contracts/crm-reports.js'
import type { CallContract } from '../../../shared/contracts/call.js'

/** Work reports and expense claims: their calls and answers are the contracts of src/shared/contracts/crm-reports.ts. */
export type { Attachment, Claim, ClaimLine, Manager, Recipient, ReportType, Statis, StatisFigure, WorkReport } from '../../../shared/contracts/crm-reports.js'
export const WEEKLY: ReportType = CRM_WORK_REPORT_TYPE.WEEKLY
export const MONTHLY: ReportType = CRM_WORK_REPORT_TYPE.MONTHLY
export const REPORT_TYPE_ENUM = 'CRM_WORK_REPORT_TYPE'

/** Per kind: its permission prefix, its words (Simplified, composed into texts the screens pass through tr()) and its statistics call. */
export const REPORT_KIND: Record<ReportType, { prefix: string; name: string; period: string; next: string; statis: CallContract<StatisParams, Statis> }> = {
  [WEEKLY]: { prefix: 'crm:weekly-report', name: '周报', period: '本周', next: '下周', statis: crmReports.weekStatis }, // i18n-ignore
  [MONTHLY]: { prefix: 'crm:monthly-report', name: '月报', period: '本月', next: '下月', statis: crmReports.monthStatis }, // i18n-ignore
}

export const REIMBURSE_STATUS_ENUM = 'CRM_REIMBURSE_STATUS'
export const REIMBURSE_CATEGORY_ENUM = 'CRM_REIMBURSE_CATEGORY'
export const { CREATED, APPROVE_PASS, APPROVE_REFUSE } = CRM_REIMBURSE_STATUS
export const STATUS_COLOR: Record<number, string> = { [CREATED]: 'processing', [APPROVE_PASS]: 'success', [APPROVE_REFUSE]: 'error' }
