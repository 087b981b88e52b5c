import { Table, type TableProps } from 'antd'
import type { Page } from '../api/http.js'
import { tablePagination, type PageState } from './pager.js'

type PagedTableProps<T> = Omit<TableProps<T>, 'dataSource' | 'pagination' | 'bordered' | 'scroll'> & {
  /** The server's answer for the page shown (undefined while the first one loads). */
  answer: Page<T> | undefined
  page: PageState
  onPage: (page: PageState) => void
}

/** One server page of rows, as the hand-written lists show them: bordered, scrolling sideways when wide, the spec's pager. */
export function PagedTable<T extends object>({ answer, page, onPage, size = 'middle', ...rest }: PagedTableProps<T>) {
  return (
    <Table<T>
      size={size}
      bordered
      scroll={{ x: 'max-content' }}
      {...rest}
      dataSource={answer?.datas ?? []}
      pagination={tablePagination(page, answer?.totalCount ?? 0, onPage)}
    />
  )
}
