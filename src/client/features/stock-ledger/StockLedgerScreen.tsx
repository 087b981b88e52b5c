import { useMemo } from 'react'
import { useNavigate } from 'react-router-dom'
import { Button } from 'antd'
import { useMeta } from '../../api/meta.js'
import { flattenFunctions, useMenus } from '../../app/menus.js'
import { FeedbackProvider } from '../../components/feedback.js'
import type { ListSource } from '../../runtime/list-source.js'
import ListView, { type ListRow } from '../../runtime/ListView.js'
import { bizDocumentPath, bizEntityName } from './biz-document.js'

export interface LedgerScreenProps {
  view: ListSource
  /** The column that holds the row's document number. */
  documentColumn: string
}

/** A read-only reading of the stock ledger (tbl_product_stock_log) whose document number opens the document behind the row. */
export default function StockLedgerScreen({ view, documentColumn }: LedgerScreenProps) {
  const meta = useMeta()
  const navigate = useNavigate()
  const { data: menus } = useMenus()
  const entries = useMemo(() => flattenFunctions(menus), [menus])
  const documentLink = (row: ListRow) => {
    const text = String(row[documentColumn] ?? '')
    const entityName = meta ? bizEntityName(meta.enums, row.bizType) : undefined
    const to = bizDocumentPath(entityName ? meta?.entityOrUndefined(entityName) : undefined, entries, row.bizId)
    if (!to) return text
    return (
      <Button type="link" size="small" style={{ padding: 0 }} onClick={() => navigate(to)}>
        {text}
      </Button>
    )
  }
  return (
    <FeedbackProvider>
      <ListView source={view} render={{ [documentColumn]: documentLink }} />
    </FeedbackProvider>
  )
}
