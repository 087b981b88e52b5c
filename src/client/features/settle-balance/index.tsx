import { lazy } from 'react'
import { registerMenuPage } from '../../app/menu-pages.js'
import { BALANCE_SIDES } from '../../views/settle-balance-sides.js'

/** 供应商往来余额 and 客户往来余额 (menus 4000015, 4000016): the read side of the settlement ledger. */
const SettleBalancePage = lazy(() => import('./SettleBalancePage.js'))

for (const side of BALANCE_SIDES) registerMenuPage(side.component, () => <SettleBalancePage side={side} />)
