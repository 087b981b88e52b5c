import { CRM_REIMBURSE_STATUS, CRM_WORK_REPORT_TYPE } from '../../../shared/generated/enum-codes.js'

/** Work reports and expense claims as the server answers them (src/server/domain/crm/work-report.ts, reimburse.ts). */
export type ReportType = (typeof CRM_WORK_REPORT_TYPE)[keyof typeof CRM_WORK_REPORT_TYPE]
export const WEEKLY: ReportType = CRM_WORK_REPORT_TYPE.WEEKLY
export const MONTHLY: ReportType = CRM_WORK_REPORT_TYPE.MONTHLY
export const REPORT_TYPE_ENUM = 'CRM_WORK_REPORT_TYPE'

/** Per kind: its permission prefix, its words (Simplified, composed into texts the screens pass through tr()) and its statistics call. */
export const REPORT_KIND: Record<ReportType, { prefix: string; name: string; period: string; next: string; statis: string }> = {
  [WEEKLY]: { prefix: 'crm:weekly-report', name: '周报', period: '本周', next: '下周', statis: '/crm/workReport/getWeekStatis' }, // i18n-ignore
  [MONTHLY]: { prefix: 'crm:monthly-report', name: '月报', period: '本月', next: '下月', statis: '/crm/workReport/getMonthStatis' }, // i18n-ignore
}

export interface Recipient {
  userId: string
  userName: string
  read: boolean
  readTime: string | null
}

export interface WorkReport {
  id: string
  reportType: ReportType
  startDate: string
  endDate: string
  content: string
  plan: string | null
  question: string | null
  createBy: string
  createById: string
  createTime: string
  recipients: Recipient[]
  recipientNames: string
  readCount: number
  /** For the caller: null when not a recipient. */
  read: boolean | null
  mine: boolean
}

export interface StatisFigure {
  key: string
  label: string
  money: boolean
  /** False while the table behind the figure is not part of the product yet (the figure is then 0). */
  available: boolean
}

export interface Statis {
  reportType: ReportType
  startDate: string
  endDate: string
  figures: StatisFigure[]
  rows: (Record<string, string | number> & { userId: string; userName: string })[]
  totals: Record<string, string | number>
}

export const REIMBURSE_STATUS_ENUM = 'CRM_REIMBURSE_STATUS'
export const REIMBURSE_CATEGORY_ENUM = 'CRM_REIMBURSE_CATEGORY'
export const { CREATED, APPROVE_PASS, APPROVE_REFUSE } = CRM_REIMBURSE_STATUS
export const STATUS_COLOR: Record<number, string> = { [CREATED]: 'processing', [APPROVE_PASS]: 'success', [APPROVE_REFUSE]: 'error' }

export interface ClaimLine {
  id?: string
  category?: number
  amount?: string
  occurDate?: string
  description?: string | null
}

export interface Attachment {
  name: string
  url: string
}

export interface Claim {
  id: string
  code: string
  title: string
  status: number
  totalAmount: string
  managerId: string
  managerName: string
  deptName: string
  applicantName: string
  createTime: string
  approveBy: string | null
  approveTime: string | null
  refuseReason: string | null
  description: string | null
  attachments: Attachment[] | null
  canApprove: boolean
  canModify: boolean
  details?: ClaimLine[]
}

export interface Manager {
  managerId: string
  managerName: string
  deptId: string
  deptName: string
}
