import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react'
import { Modal } from 'antd'
import GuardedModal from '../../runtime/GuardedModal.js'
import { useNavigate } from 'react-router-dom'
import { registerMenuPage, registerMenuResolver } from '../../app/menu-pages.js'
import { registerRowAction } from '../../runtime/row-actions.js'
import type { EntityRow } from '../../runtime/entity-api.js'
import { registerCustomerTab } from '../crm-customers/customer-tabs.js'
import { dealPageTitle, SUBJECT, type DealKind, type DealMode } from './deal-routes.js'
import './memorial-bell.js'
import { tr, useTr } from '../../i18n/use-tr.js'

/**
 * CRM deals in the browser: 商机, 合同, 联系人 and 纪念日 screens (menus /crm/business, /crm/contract,
 * /crm/contact, /crm/memorial), the hidden pages below 商机 and 合同 (add, modify, detail, detailV2,
 * print and the H5 variants, spec 000 §2), their row actions, and the 联系人 / 商机 / 合同 / 回款 tabs of
 * the customer page.
 */
const EntityPage = lazy(() => import('../../runtime/EntityPage.js'))
const DealPage = lazy(() => import('./DealPage.js'))
const MemorialPage = lazy(() => import('./MemorialPage.js'))
const ApproveDialog = lazy(() => import('./ApproveDialog.js'))
const PaymentPanel = lazy(() => import('./PaymentPanel.js'))
const ContractFiles = lazy(() => import('./ContractFiles.js'))
const ShareDialog = lazy(() => import('./ShareDialog.js'))
const CustomerDealsTab = lazy(() => import('./CustomerDealsTab.js'))

const LIST_PATH: Record<DealKind, string> = { business: '/crm/business', contract: '/crm/contract' }

registerMenuPage('/crm/business/index', () => <EntityPage entityName="crmBusiness" />)
registerMenuPage('/crm/contract/index', () => <EntityPage entityName="crmContract" />)
registerMenuPage('/crm/contact/index', () => <EntityPage entityName="crmContact" />)
registerMenuPage('/crm/memorial/index', () => <MemorialPage />)

/** `add`, `h5/add`, `modify/{id}`, `detail/{id}`, `detailV2/{id}`, `print/{id}`, `h5/{id}` below a deal list. */
export function parseDealRoute(rest: string): { mode: DealMode; id?: string; pattern: string } | undefined {
  const parts = rest.split('/').filter(Boolean)
  if (parts.length === 1 && parts[0] === 'add') return { mode: 'add', pattern: 'add' }
  if (parts.length === 2 && parts[0] === 'h5' && parts[1] === 'add') return { mode: 'h5add', pattern: 'h5/add' }
  if (parts.length === 2 && ['modify', 'detail', 'detailV2', 'print', 'h5'].includes(parts[0]))
    return { mode: parts[0] as DealMode, id: decodeURIComponent(parts[1]), pattern: `${parts[0]}/:id` }
  return undefined
}

registerMenuResolver((menu, rest) => {
  const kind = (Object.keys(LIST_PATH) as DealKind[]).find((k) => menu.path?.replace(/\/+$/, '') === LIST_PATH[k])
  if (!kind || !rest) return undefined
  const route = parseDealRoute(rest)
  if (!route) return undefined
  return {
    title: dealPageTitle(kind, route.mode),
    pattern: route.pattern,
    render: () => <DealPage key={`${route.mode}:${route.id ?? ''}`} kind={kind} mode={route.mode} id={route.id} listPath={LIST_PATH[kind]} />,
  }
})

let opened = 0
function opening<P extends object>(Dialog: ComponentType<P>, props: P): ReactNode {
  opened += 1
  return (
    <Suspense key={`crm-deals-${opened}`} fallback={null}>
      <Dialog {...props} />
    </Suspense>
  )
}

/** A row action that opens a page: navigates, then closes itself. */
function GoTo({ to, close }: { to: string; close: () => void }) {
  const navigate = useNavigate()
  useEffect(() => {
    navigate(to)
    close()
  }, [navigate, to, close])
  return null
}

function InModal({ title, width, onClose, children }: { title: string; width?: number | string; onClose: () => void; children: ReactNode }) {
  return (
    <GuardedModal open title={title} width={width ?? '80%'} footer={null} onCancel={onClose} destroyOnHidden>
      <Suspense fallback={null}>{children}</Suspense>
    </GuardedModal>
  )
}

for (const kind of ['business', 'contract'] as const) {
  const entity = kind === 'business' ? 'crmBusiness' : 'crmContract'
  registerRowAction(entity, 'approve', (row: EntityRow, reload, close) =>
    Number(row.status) === 0
      ? opening(ApproveDialog, { kind, id: row.id, title: SUBJECT[kind], onDone: reload, onClose: close })
      : opening(Notice, { text: tr(Number(row.status) === 3 ? '已审核通过，不允许重复审核！' : '已审核拒绝，请修改后重新提交！'), onClose: close }),
  )
  registerRowAction(entity, 'view', (row, _reload, close) => <GoTo key={`view-${++opened}`} to={`${LIST_PATH[kind]}/detail/${row.id}`} close={close} />)
  registerRowAction(entity, 'print', (row, _reload, close) => <GoTo key={`print-${++opened}`} to={`${LIST_PATH[kind]}/print/${row.id}`} close={close} />)
}
registerRowAction('crmContract', 'payment', (row, reload, close) =>
  opening(InModal, {
    title: tr('回款：') + `${String(row.contractNo)} ${String(row.name)}`,
    onClose: () => {
      reload()
      close()
    },
    children: <PaymentPanel contractId={row.id} contractAmount={String(row.amount)} approved={Number(row.status) === 3} />,
  }),
)
registerRowAction('crmContract', 'files', (row, _reload, close) =>
  opening(InModal, { title: tr('合同附件：') + String(row.contractNo), width: 720, onClose: close, children: <ContractFiles contractId={row.id} /> }),
)
registerRowAction('crmMemorial', 'share', (row, reload, close) =>
  opening(ShareDialog, { id: row.id, title: String(row.title), shared: Array.isArray(row.sharedUserIds) ? (row.sharedUserIds as string[]) : [], onDone: reload, onClose: close }),
)
registerRowAction('crmMemorial', 'remove', (row, reload, close) =>
  opening(ConfirmRemove, { id: row.id, title: String(row.title), onDone: reload, onClose: close }),
)

function Notice({ text, onClose }: { text: string; onClose: () => void }) {
  const tr = useTr()
  return (
    <Modal open title={tr('提示')} onOk={onClose} onCancel={onClose} cancelButtonProps={{ style: { display: 'none' } }}>
      {text}
    </Modal>
  )
}

function ConfirmRemove({ id, title, onDone, onClose }: { id: string; title: string; onDone: () => void; onClose: () => void }) {
  const tr = useTr()
  return (
    <Modal
      open
      title={tr('删除纪念日')}
      okButtonProps={{ danger: true }}
      okText={tr('删除')}
      cancelText={tr('取消')}
      onCancel={onClose}
      onOk={async () => {
        const [{ call }, { crmMemorials }] = await Promise.all([import('../../api/call.js'), import('../../../shared/contracts/crm-deals.js')])
        await call(crmMemorials.remove, { ids: [id] }).then(onDone, () => undefined)
        onClose()
      }}
    >
      {tr(`确定删除纪念日「${title}」？`)}
    </Modal>
  )
}

/** `title` in Simplified: the customer page shows it through tr(). */
const tab = (key: string, title: string, view: 'contact' | 'business' | 'contract' | 'payment') =>
  registerCustomerTab({
    key,
    title,
    render: (customerId) => (
      <Suspense fallback={null}>
        <CustomerDealsTab customerId={customerId} view={view} />
      </Suspense>
    ),
  })
tab('contacts', '联系人', 'contact') // i18n-ignore
tab('business', '商机', 'business') // i18n-ignore
tab('contracts', '合同', 'contract') // i18n-ignore
tab('payments', '回款', 'payment') // i18n-ignore
