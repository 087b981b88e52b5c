import type { ListSource, SourceParam } from '../runtime/list-source.js'
import { term } from '../i18n/term.js'
import { PERMISSION } from '../../shared/generated/permission-keys.js'

/**
 * 周报 / 月报 (`/crm/workReport/list`): the reports the user may see, of one kind (`reportType`) in one
 * box (the page's tab), searchable by reporter (for report writers, who may open the user picker),
 * keyword and period (whole weeks or months). `words` are the kind's period words (本周 / 下周).
 */
export function workReportView(reportType: number, words: { period: string; next: string }, picker: 'week' | 'month'): ListSource {
  return {
    name: 'crm-work-reports',
    path: '/crm/workReport/list',
    params: { reportType },
    fields: {
      userId: { type: 'ref', label: term('汇报人'), ref: 'user', picker: 'user' },
      keyword: { type: 'string', label: term('关键字') },
      period: { type: 'date', label: term('报告周期') },
    },
    query: [
      { field: 'userId', permission: [PERMISSION.crm.weeklyReport.add, PERMISSION.crm.monthlyReport.add] },
      { field: 'keyword' },
      { field: 'period', op: 'between', range: ['startDate', 'endDate'], picker },
    ],
    columns: [
      { key: 'period', title: term('报告周期'), width: 200, ellipsis: false },
      { key: 'createBy', title: term('汇报人'), width: 100 },
      { key: 'content', title: term(`${words.period}工作内容`), width: 320 },
      { key: 'plan', title: term(`${words.next}工作计划`), width: 260 },
      { key: 'recipientNames', title: term('发送给'), width: 160 },
      { key: 'readCount', title: term('已读'), width: 80, ellipsis: false },
      { key: 'createTime', title: term('提交时间'), width: 170 },
    ],
  }
}

const CLAIM_SEARCH: readonly SourceParam[] = [
  { field: 'code' },
  { field: 'title' },
  { field: 'status' },
  { field: 'time', op: 'between', range: ['startTime', 'endTime'] },
]

const claimView = (name: string, path: string): ListSource => ({
  name,
  path,
  fields: {
    code: { type: 'string', label: term('报销单号') },
    title: { type: 'string', label: term('报销事由') },
    status: { type: 'enum', label: term('审核状态'), enum: 'CRM_REIMBURSE_STATUS' },
    time: { type: 'date', label: term('申请时间') },
  },
  query: CLAIM_SEARCH,
  columns: [
    { key: 'code', title: term('报销单号'), width: 200, ellipsis: false },
    { key: 'title', title: term('报销事由'), width: 220 },
    { key: 'totalAmount', title: term('报销总金额(元)'), width: 130, numeric: true, ellipsis: false },
    { key: 'applicantName', title: term('申请人'), width: 100, ellipsis: false },
    { key: 'deptName', title: term('所属部门'), width: 120, ellipsis: false },
    { key: 'managerName', title: term('审批人'), width: 100, ellipsis: false },
    { key: 'status', title: term('审核状态'), width: 100, ellipsis: false },
    { key: 'createTime', title: term('申请时间'), width: 170, ellipsis: false },
    { key: 'approveTime', title: term('审核时间'), width: 170, ellipsis: false },
  ],
})

/** 我的报销 (`/crm/cost/list`): the user's own claims. */
export const MY_CLAIMS_VIEW = claimView('crm-claims', '/crm/cost/list')

/** 报销审批 (`/crm/cost/approveList`): claims whose approver the user is (the page asks for 待审核 unless a status is chosen). */
export const APPROVE_CLAIMS_VIEW = claimView('crm-claims', '/crm/cost/approveList')
