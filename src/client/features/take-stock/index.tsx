import { lazy } from 'react'
import { registerMenuPage } from '../../app/menu-pages.js'

/** 盘点任务管理 (menu component `/sc/stock/take/plan/index`): plans are no approval document, so a page of their own. */
const TakeStockPlanPage = lazy(() => import('./TakeStockPlanPage.js'))

registerMenuPage('/sc/stock/take/plan/index', (inputs) => <TakeStockPlanPage openId={inputs.id} />)
