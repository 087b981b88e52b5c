import { lazy } from 'react'
import { useLocation } from 'react-router-dom'
import { registerMenuPage, registerMenuResolver, type SubPage } from '../../app/menu-pages.js'
import { MONTHLY, REPORT_KIND, WEEKLY, type ReportType } from './report-api.js'

const WorkReportListPage = lazy(() => import('./WorkReportListPage.js'))
const WorkReportAddPage = lazy(() => import('./WorkReportAddPage.js'))
const WorkReportDetailPage = lazy(() => import('./WorkReportDetailPage.js'))
const ReimburseListPage = lazy(() => import('./ReimburseListPage.js'))
const ReimburseFormPage = lazy(() => import('./ReimburseFormPage.js'))
const ReimburseDetailPage = lazy(() => import('./ReimburseDetailPage.js'))

/** Menu components of the seeded CRM menus (schemas/seed/menus.json). */
const REPORT_MENUS: Record<string, ReportType> = { '/crm/work-report/weekly/index': WEEKLY, '/crm/work-report/monthly/index': MONTHLY }
const REIMBURSE_MENU = '/crm/reimburse/index'

/** A menu page renders at its menu's own path: that is the list path its sub pages hang below. */
function AtMenuPath({ render }: { render: (listPath: string) => JSX.Element }) {
  const { pathname } = useLocation()
  return render(pathname.replace(/\/+$/, ''))
}

for (const [component, type] of Object.entries(REPORT_MENUS))
  registerMenuPage(component, () => <AtMenuPath render={(listPath) => <WorkReportListPage type={type} listPath={listPath} />} />)
registerMenuPage(REIMBURSE_MENU, () => <AtMenuPath render={(listPath) => <ReimburseListPage listPath={listPath} />} />)

/**
 * The hidden child pages of spec 000 §2: weekly and monthly report `add` and `detail/{id}`; reimburse
 * `add`, `detail/{id}` (also the approval view) and `modify/{id}`.
 */
// Titles in Simplified: the shell shows them through tr().
registerMenuResolver((menu, rest): SubPage | undefined => {
  const component = (menu.component ?? '').trim()
  const listPath = (menu.path ?? '').replace(/\/+$/, '')
  const [mode, id, ...more] = rest.split('/').filter(Boolean)
  if (!mode || more.length || !listPath) return undefined
  const type = REPORT_MENUS[component]
  if (type !== undefined) {
    const name = REPORT_KIND[type].name
    if (mode === 'add' && !id) return { title: `写${name}`, pattern: 'add', render: () => <WorkReportAddPage type={type} listPath={listPath} /> } // i18n-ignore
    if (mode === 'detail' && id) return { title: `查看${name}`, pattern: 'detail/:id', render: () => <WorkReportDetailPage type={type} listPath={listPath} /> } // i18n-ignore
    return undefined
  }
  if (component !== REIMBURSE_MENU) return undefined
  if (mode === 'add' && !id) return { title: '新增报销单', pattern: 'add', render: () => <ReimburseFormPage mode="add" listPath={listPath} /> } // i18n-ignore
  if (mode === 'modify' && id) return { title: '修改报销单', pattern: 'modify/:id', render: () => <ReimburseFormPage mode="modify" listPath={listPath} /> } // i18n-ignore
  if (mode === 'detail' && id) return { title: '报销单详情', pattern: 'detail/:id', render: () => <ReimburseDetailPage listPath={listPath} /> } // i18n-ignore
  return undefined
})
