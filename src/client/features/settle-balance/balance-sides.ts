/** The two sides of the balance report: their menu component, calls and keys (src/server/modules/settle/balance-report.ts). */
export interface BalanceSide {
  component: string
  base: string
  idParam: 'supplierId' | 'customerId'
  partyLabel: string
  balanceLabel: string
  exportKey: string
}

export const BALANCE_SIDES: readonly BalanceSide[] = [
  {
    component: '/settle/balance/index',
    base: '/settle/report/supplier',
    idParam: 'supplierId',
    partyLabel: '供应商',
    balanceLabel: '应付余额',
    exportKey: 'settle:balance:export',
  },
  {
    component: '/customer-settle/balance/index',
    base: '/customer/settle/report',
    idParam: 'customerId',
    partyLabel: '客户',
    balanceLabel: '应收余额',
    exportKey: 'customer-settle:balance:export',
  },
]
