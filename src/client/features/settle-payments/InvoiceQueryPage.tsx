import { Tag } from 'antd'
import ListView, { type ListRow } from '../../runtime/ListView.js'
import { INVOICE_VIEW } from '../../views/settle-invoices.js'

/** 发票查询 (views/settle-invoices.ts): the source as a tag, the party whichever side it is. */
export default function InvoiceQueryPage() {
  return (
    <ListView<ListRow>
      source={INVOICE_VIEW}
      render={{
        sourceName: (r) => <Tag>{String(r.sourceName ?? '')}</Tag>,
        party: (r) => String(r.supplierName ?? r.customerName ?? ''),
      }}
    />
  )
}
