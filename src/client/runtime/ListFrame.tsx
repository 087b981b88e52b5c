import { useState, type ReactNode } from 'react'
import { Button, Card, Drawer, Space } from 'antd'
import { FilterOutlined } from '@ant-design/icons'
import QueryForm from './QueryForm.js'
import type { SearchItem } from './query-params.js'
import { useNarrowScreen } from '../app/narrow-screen.js'
import { useTr } from '../i18n/use-tr.js'

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

/**
 * The one layout of every list screen: the search card, then the card with tabs, toolbar and table. On a
 * phone the rows come first: the search form waits behind a 搜索/筛选 button, in a drawer that closes on 查询.
 */
export default function ListFrame({ className, items, search, onSearch, searchForm, before, header, toolbar = [], children, after }: ListFrameProps) {
  const tr = useTr()
  const narrow = useNarrowScreen()
  const [searching, setSearching] = useState(false)
  const searchable = Boolean(search) || items.length > 0
  const form = (run: (values: Record<string, unknown>) => void) =>
    search ?? <QueryForm items={items} onSearch={run} showReset={searchForm?.reset} enterToSearch={searchForm?.enter} span={searchForm?.span} />
  const searchButton = narrow && searchable && (
    <Button key="__search" icon={<FilterOutlined aria-hidden />} onClick={() => setSearching(true)}>
      {tr('搜索/筛选')}
    </Button>
  )
  const buttons = [searchButton, ...toolbar].filter(Boolean)
  return (
    <div className={className}>
      {before}
      {searchable && !narrow && (
        <Card size="small" variant="borderless" style={{ marginBottom: 12 }}>
          {form(onSearch)}
        </Card>
      )}
      {searchable && narrow && (
        // Kept mounted once opened, so the conditions stay in the form between openings.
        <Drawer placement="right" width="100vw" title={tr('搜索/筛选')} open={searching} onClose={() => setSearching(false)} forceRender>
          {form((values) => {
            setSearching(false)
            onSearch(values)
          })}
        </Drawer>
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
