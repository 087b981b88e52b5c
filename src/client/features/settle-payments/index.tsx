import { lazy } from 'react'
import { registerMenuPage, registerMenuResolver } from '../../app/menu-pages.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/**
 * 收付款管理 and 发票管理 (spec 001 §7 settlement; menus 4000013*, 4000014*). Order types, plans, payments,
 * payment invoices and 开票 are entity screens from their files (schemas/entities/settle-*.json); 发票查询,
 * 新增开票 (/invoice/export/add) and 采购收货单 登记付款 (/purchase/receive/addPayments/{id}) are pages of
 * their own. Everything loads on first use.
 */
const EntityPage = lazy(() => import('../../runtime/EntityPage.js'))
const InvoiceQueryPage = lazy(() => import('./InvoiceQueryPage.js'))
const InvoiceExportPage = lazy(() => import('./InvoiceExportPage.js'))
const InvoiceExportAddPage = lazy(() => import('./InvoiceExportAddPage.js'))
const AddPaymentsPage = lazy(() => import('./AddPaymentsPage.js'))

registerMenuPage('/settle/payments/order-type/index', () => <EntityPage entityName="settlePaymentsOrderType" />)
registerMenuPage('/settle/payments/plan/index', () => <EntityPage entityName="settlePaymentPlan" />)
registerMenuPage('/settle/payments/index', () => <EntityPage entityName="settlePayment" />)
registerMenuPage('/settle/payments-invoice/index', () => <EntityPage entityName="settlePaymentInvoice" />)
registerMenuPage('/settle/invoice/export/index', () => <InvoiceExportPage />)
registerMenuPage('/settle/invoice/index', () => <InvoiceQueryPage />)

/** The 开票管理 menu's permission and the receive sheet list's, which the two pages below belong to. */
const INVOICE_EXPORT_MENU = PERMISSION.settle.invoiceExport.query
const RECEIVE_MENU = PERMISSION.purchase.receive.query

registerMenuResolver((menu, rest) => {
  if (menu.permission === INVOICE_EXPORT_MENU && rest === 'add')
    return { title: '新增开票', pattern: 'add', render: () => <InvoiceExportAddPage listPath={menu.path ?? '/invoice/export'} /> } // i18n-ignore: the shell shows titles through tr()
  const addPayments = /^addPayments\/([^/]+)$/.exec(rest)
  if (menu.permission === RECEIVE_MENU && addPayments) {
    const id = decodeURIComponent(addPayments[1])
    return { title: '采购收货单登记付款', pattern: 'addPayments/:id', render: () => <AddPaymentsPage id={id} /> } // i18n-ignore: the shell shows titles through tr()
  }
  return undefined
})
