import type { ReactNode } from 'react'
import { Card, Space } from 'antd'
import QueryForm from './QueryForm.js'
import type { SearchItem } from './query-params.js'

export interface ListFrameProps {
  className: string
  /** The search form's inputs; none, no search card. */
  items: readonly SearchItem[]
  /** A search form of the page's own, in place of the inputs' (a custom list's). */
  search?: ReactNode
  onSearch: (values: Record<string, unknown>) => void
  /** The search form's 重置, Enter-to-search and input span (QueryForm's defaults otherwise). */
  searchForm?: { reset?: boolean; enter?: boolean; span?: number }
  /** Over the search card (figures and reminders of the page). */
  before?: ReactNode
  /** Over the toolbar in the table's card (the tabs of a list). */
  header?: ReactNode
  /** The toolbar's buttons (false for one not shown); none shown, no toolbar row. */
  toolbar?: readonly ReactNode[]
  /** The table. */
  children: ReactNode
  /** After the cards (dialogs and drawers of the page). */
  after?: ReactNode
}

/** The one layout of every list screen: the search card, then the card with tabs, toolbar and table. */
export default function ListFrame({ className, items, search, onSearch, searchForm, before, header, toolbar = [], children, after }: ListFrameProps) {
  const buttons = toolbar.filter(Boolean)
  return (
    <div className={className}>
      {before}
      {(search || items.length > 0) && (
        <Card size="small" variant="borderless" style={{ marginBottom: 12 }}>
          {search ?? (
            <QueryForm items={items} onSearch={onSearch} showReset={searchForm?.reset} enterToSearch={searchForm?.enter} span={searchForm?.span} />
          )}
        </Card>
      )}
      <Card size="small" variant="borderless">
        {header}
        {buttons.length > 0 && (
          <Space style={{ marginBottom: 12 }} wrap>
            {buttons}
          </Space>
        )}
        {children}
      </Card>
      {after}
    </div>
  )
}
