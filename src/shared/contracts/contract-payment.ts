/** One period of a contract's collection plan, as `GET /crm/contract/queryPayment` answers it. */
export interface PaymentRow {
  id: string
  contractId: string
  contractNo: string
  contractName: string
  customerId: string
  customerName: string | null
  period: number
  planDate: string
  planAmount: string
  receivedAmount: string
  unreceivedAmount: string
  /** CRM_PAYMENT_PLAN_STATUS */
  status: number
  overdue: boolean
  overdueDays: number
  remindDays: number | null
  description: string | null
  records: { id: string; receiveDate: string; amount: string; payMethod: string | null; description: string | null; createBy: string | null; createTime: string | null }[]
}
