import { PERMISSION } from '../../shared/generated/permission-keys.js'
/** The two sides of the balance report: their menu component, calls and keys (src/server/modules/settle/balance-report.ts). */
export interface BalanceSide {
  component: string
  base: string
  idParam: 'supplierId' | 'customerId'
  /** Simplified (composed into texts the report passes through tr()). */
  partyLabel: string
  /** Simplified; the report shows it through tr(). */
  balanceLabel: string
  exportKey: string
}

export const BALANCE_SIDES: readonly BalanceSide[] = [
  {
    component: '/settle/balance/index',
    base: '/settle/report/supplier',
    idParam: 'supplierId',
    partyLabel: '供应商', // i18n-ignore
    balanceLabel: '应付余额', // i18n-ignore
    exportKey: PERMISSION.settle.balance.export,
  },
  {
    component: '/customer-settle/balance/index',
    base: '/customer/settle/report',
    idParam: 'customerId',
    partyLabel: '客户', // i18n-ignore
    balanceLabel: '应收余额', // i18n-ignore
    exportKey: PERMISSION.customerSettle.balance.export,
  },
]
