import { defineCall, type CallContract, type Page, type PageParams } from './call.js'
import { CRM_WORK_REPORT_TYPE } from '../generated/enum-codes.js'

/** CRM work reports (`/crm/workReport/*`) and expense claims (`/crm/cost/*`), spec 001 §7 CRM. */
export type ReportType = (typeof CRM_WORK_REPORT_TYPE)[keyof typeof CRM_WORK_REPORT_TYPE]

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

export type NewWorkReport = {
  reportType: ReportType
  /** Any day of the period. */
  startDate: string
  content: string
  plan: string
  question: string
  recipientIds: string[]
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

export type StatisParams = { date?: string; startDate?: string; userId?: string }

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

/** The approver found for the caller in the department tree. */
export interface Manager {
  managerId: string
  managerName: string
  deptId: string
  deptName: string
}

export type ClaimInput = {
  title: string
  description?: string
  attachments: Attachment[]
  details: { category?: number; amount?: string | null; occurDate: string; description: string }[]
}

export type ClaimDecision = { id: string; status: number; refuseReason?: string }

/** The list conditions of the report boxes (the page's tab and the counts beside it). */
export type WorkReportQuery = PageParams & { reportType: ReportType; box?: 'all' | 'sent' | 'received'; unread?: 0 | 1; userId?: string; keyword?: string; startDate?: string; endDate?: string }
export type ClaimQuery = PageParams & { status?: number; startTime?: string; endTime?: string; code?: string; title?: string }

/** One route, two reads: with `id` the report (marked read for a recipient), without it a page of a kind's reports. */
const workReportList = defineCall<{ id: string } | WorkReportQuery, WorkReport | Page<WorkReport>>('GET', '/crm/workReport/list')

export const crmReports = {
  /** The route's contract, as the server registers it. */
  workReportList,
  /** With `id`: the one report (and it is marked read for a recipient). */
  workReportDetail: workReportList as CallContract<{ id: string }, WorkReport>,
  /** Without `id`: the reports of a kind the caller may see (the same route as the detail). */
  workReports: workReportList as CallContract<WorkReportQuery, Page<WorkReport>>,
  weekStatis: defineCall<StatisParams, Statis>('GET', '/crm/workReport/getWeekStatis'),
  monthStatis: defineCall<StatisParams, Statis>('GET', '/crm/workReport/getMonthStatis'),
  addWorkReport: defineCall<NewWorkReport, string>('POST', '/crm/workReport/add'),
  deleteWorkReport: defineCall<{ id: string }, null>('DELETE', '/crm/workReport/delete'),
  /** 我的报销: the caller's own claims. */
  claims: defineCall<ClaimQuery, Page<Claim>>('GET', '/crm/cost/list'),
  /** 报销审批: claims whose approver the caller is. */
  approveClaims: defineCall<ClaimQuery, Page<Claim>>('GET', '/crm/cost/approveList'),
  claimManager: defineCall<void, Manager>('GET', '/crm/cost/getManagerId'),
  claimDetail: defineCall<{ id: string }, Claim>('GET', '/crm/cost/getDetail'),
  addClaim: defineCall<ClaimInput, string>('POST', '/crm/cost/add'),
  updateClaim: defineCall<ClaimInput & { id: string }, null>('PUT', '/crm/cost/update'),
  approveClaim: defineCall<ClaimDecision, null>('POST', '/crm/cost/approve'),
}
