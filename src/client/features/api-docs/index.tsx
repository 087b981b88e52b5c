import { lazy, Suspense } from 'react'
import { registerMenuPage } from '../../app/menu-pages.js'

/** 接口文档 (开发管理): the Scalar reference is large, so it loads only when the page opens. */
const ApiDocsPage = lazy(() => import('./ApiDocsPage.js'))

registerMenuPage('/development/api-docs/index', () => (
  <Suspense fallback={null}>
    <ApiDocsPage />
  </Suspense>
))
