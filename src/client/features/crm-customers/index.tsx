import { lazy } from 'react'
import { useParams } from 'react-router-dom'
import { loadedMeta } from '../../api/meta.js'
import { registerMenuPage, registerMenuResolver } from '../../app/menu-pages.js'
import { registerOwnTabs } from './CustomerTabsPanel.js'

const CustomerListPage = lazy(() => import('./CustomerListPage.js'))
const PublicSeaPage = lazy(() => import('./PublicSeaPage.js'))
const SeaRulePage = lazy(() => import('./SeaRulePage.js'))
const ActionListPage = lazy(() => import('./ActionListPage.js'))
const CustomerDetailPage = lazy(() => import('./CustomerDetailPage.js'))
const CustomerFormPage = lazy(() => import('./CustomerFormPage.js'))

registerMenuPage('/crm/customer/index', () => <CustomerListPage />)
registerMenuPage('/crm/public-sea/index', () => <PublicSeaPage />)
registerMenuPage('/crm/public-sea/rule/index', () => <SeaRulePage />)
registerMenuPage('/crm/action/index', () => <ActionListPage />)
registerOwnTabs(loadedMeta)

function WithId({ render }: { render: (id: string) => JSX.Element }) {
  const { id } = useParams()
  return id ? render(id) : null
}

/** The customer pages below 客户管理 (spec 000 §2), as customer-api.ts customerPaths names them; titles in Simplified (the shell shows them through tr()). */
const PAGES: { pattern: string; match: RegExp; title: string; render: () => JSX.Element }[] = [
  { pattern: 'h5', match: /^h5$/, title: '客户管理', render: () => <CustomerListPage phone /> }, // i18n-ignore
  { pattern: 'add', match: /^add$/, title: '新增客户', render: () => <CustomerFormPage /> }, // i18n-ignore
  { pattern: 'modify/:id', match: /^modify\/[^/]+$/, title: '修改客户', render: () => <WithId render={(id) => <CustomerFormPage id={id} />} /> }, // i18n-ignore
  { pattern: 'detail/:id', match: /^detail\/[^/]+$/, title: '客户详情', render: () => <WithId render={(id) => <CustomerDetailPage id={id} variant="detail" />} /> }, // i18n-ignore
  { pattern: 'detailV2/:id', match: /^detailV2\/[^/]+$/, title: '客户详情', render: () => <WithId render={(id) => <CustomerDetailPage id={id} variant="detailV2" />} /> }, // i18n-ignore
  { pattern: 'print/:id', match: /^print\/[^/]+$/, title: '打印客户', render: () => <WithId render={(id) => <CustomerDetailPage id={id} variant="print" />} /> }, // i18n-ignore
  { pattern: 'h5/add', match: /^h5\/add$/, title: '新增客户', render: () => <CustomerFormPage compact /> }, // i18n-ignore
  { pattern: 'h5/modify/:id', match: /^h5\/modify\/[^/]+$/, title: '修改客户', render: () => <WithId render={(id) => <CustomerFormPage id={id} compact />} /> }, // i18n-ignore
  { pattern: 'h5/detail/:id', match: /^h5\/detail\/[^/]+$/, title: '客户详情', render: () => <WithId render={(id) => <CustomerDetailPage id={id} variant="h5" />} /> }, // i18n-ignore
]

registerMenuResolver((menu, rest) => {
  if (menu.path?.replace(/\/+$/, '') !== '/crm/customer' || !rest) return undefined
  const page = PAGES.find((p) => p.match.test(rest.replace(/^\/+|\/+$/g, '')))
  return page ? { title: page.title, pattern: page.pattern, render: page.render } : undefined
})
