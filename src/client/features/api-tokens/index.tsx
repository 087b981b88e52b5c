import { lazy } from 'react'
import { registerMenuPage } from '../../app/menu-pages.js'

/** 接口令牌 (系统管理): a page of its own, loaded on first use. */
const ApiTokenPage = lazy(() => import('./ApiTokenPage.js'))

registerMenuPage('/system/api-token/index', () => <ApiTokenPage />)
