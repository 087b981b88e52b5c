import { lazy } from 'react'
import { registerMenuPage } from '../../app/menu-pages.js'
import { LOT_VIEW, MOVEMENT_VIEW } from '../../views/stock-ledger.js'

/** 商品库存变动记录 and 商品批次库存: two readings of the stock ledger on one screen component. */
const StockLedgerScreen = lazy(() => import('./StockLedgerScreen.js'))
/** 商品库存: the stock of each product in each warehouse. */
const StockListPage = lazy(() => import('./StockListPage.js'))

registerMenuPage('/sc/stock/product-log/index', () => <StockLedgerScreen view={MOVEMENT_VIEW} documentColumn="bizCode" />)
registerMenuPage('/sc/stock/lot/index', () => <StockLedgerScreen view={LOT_VIEW} documentColumn="lotCode" />)
registerMenuPage('/sc/stock/product/index', () => <StockListPage />)
