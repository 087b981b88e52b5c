import { useState } from 'react'
import type { TablePaginationConfig } from 'antd'
import { DEFAULT_PAGE_SIZE } from '../api/http.js'
import { tr } from '../i18n/use-tr.js'

/** Grid paging of the spec (000 §9): 20 rows (the request's default), sizes 5, 15, 20, 50, 100, total shown. */
export { DEFAULT_PAGE_SIZE }
export const PAGE_SIZE_OPTIONS = [5, 15, 20, 50, 100]
export const showTotal = (total: number) => tr(`共 ${total} 条`)

export interface PageState {
  index: number
  size: number
}

/** The page a grid shows, starting on the first at the spec's default size. */
export const usePageState = (size = DEFAULT_PAGE_SIZE) => useState<PageState>({ index: 1, size })

/** The pager of every paged grid: the spec's sizes and total; changing the size goes back to page 1. */
export function tablePagination(page: PageState, total: number, setPage: (page: PageState) => void): TablePaginationConfig {
  return {
    current: page.index,
    pageSize: page.size,
    total,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZE_OPTIONS,
    showTotal,
    onChange: (index, size) => setPage({ index: size === page.size ? index : 1, size }),
  }
}
