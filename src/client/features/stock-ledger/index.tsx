import { lazy } from 'react'
import { registerMenuPage } from '../../app/menu-pages.js'
import { LOT_SCREEN, MOVEMENT_SCREEN } from './ledger-screens.js'

/** 商品库存变动记录 and 商品批次库存: two readings of the stock ledger on one screen component. */
const StockLedgerScreen = lazy(() => import('./StockLedgerScreen.js'))

registerMenuPage('/sc/stock/product-log/index', () => <StockLedgerScreen {...MOVEMENT_SCREEN} />)
registerMenuPage('/sc/stock/lot/index', () => <StockLedgerScreen {...LOT_SCREEN} />)
