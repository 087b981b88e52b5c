import { lazy } from 'react'
import { registerMenuPage } from '../../app/menu-pages.js'

/** 打印模板 (系统管理), a page of its own: templates are per document kind and edited in a designer. */
const PrintTemplatePage = lazy(() => import('./PrintTemplatePage.js'))

registerMenuPage('/system/print-template/index', () => <PrintTemplatePage />)
