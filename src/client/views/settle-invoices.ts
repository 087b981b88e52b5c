import type { ListSource, SourceColumn } from '../runtime/list-source.js'
import { term } from '../i18n/term.js'

const column = (key: string, title: string, numeric = false): SourceColumn => ({ key, title, numeric, ellipsis: false })

/** 发票查询 (`GET /settle/invoice/query`): 收付款发票 and 开票 in one paged list. */
export const INVOICE_VIEW: ListSource = {
  name: 'settle-invoices',
  path: '/settle/invoice/query',
  fields: {
    invoiceNo: { type: 'string', label: term('发票号码') },
    invoiceType: { type: 'enum', label: term('发票类型'), enum: 'INVOICE_TYPE' },
    direction: { type: 'enum', label: term('收付方向'), enum: 'SETTLE_FEE_SHEET_TYPE' },
    invoiceDate: { type: 'date', label: term('开票日期') },
  },
  query: [{ field: 'invoiceNo' }, { field: 'invoiceType' }, { field: 'direction' }, { field: 'invoiceDate', op: 'between' }],
  seq: false,
  size: 'small',
  columns: [
    column('sourceName', term('来源')),
    column('bizCode', term('单号')),
    column('directionName', term('收付方向')),
    column('party', term('往来单位')),
    column('invoiceTypeName', term('发票类型')),
    column('invoiceNo', term('发票号码')),
    column('invoiceDate', term('开票日期')),
    column('amount', term('价税合计'), true),
    column('taxRate', term('税率（%）'), true),
    column('taxAmount', term('税额'), true),
    column('description', term('备注')),
  ],
}
