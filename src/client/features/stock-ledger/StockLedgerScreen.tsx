import { useMemo, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { Button, Card, Space } from 'antd'
import type { ColumnType } from 'antd/es/table'
import useSWR from 'swr'
import { api, download, type Page } from '../../api/http.js'
import { useMeta, type Meta } from '../../api/meta.js'
import { flattenFunctions, useMenus } from '../../app/menus.js'
import { usePermission } from '../../app/session.js'
import QueryForm from '../../runtime/QueryForm.js'
import type { QueryParam } from '../../../shared/generated/entity.js'
import { FeedbackProvider } from '../../components/feedback.js'
import { SEQ_WIDTH } from '../../runtime/list-columns.js'
import { DEFAULT_PAGE_SIZE } from '../../components/pager.js'
import { initialSearchValues, searchItems, toWireQuery } from '../../runtime/query-params.js'
import { bizDocumentPath, bizEntityName } from './biz-document.js'
import { useTr } from '../../i18n/use-tr.js'
import { ExportButton } from '../../components/ExportButton.js'
import { PagedTable } from '../../components/PagedTable.js'

export type LedgerRow = Record<string, unknown> & { id: string }

export interface LedgerColumn {
  key: string
  /** Marked with term() and translated where shown, so a language switch shows the new title. */
  title: string
  width: number
  numeric?: boolean
  /** The row's document number: a link that opens the document behind the row. */
  opensDocument?: boolean
}

export interface LedgerScreenProps {
  /** Calls `{base}/query` and `{base}/export`. */
  base: string
  exportKey: string
  /** Search params over the ledger entity's (productStockLog) fields; by default its list view's. */
  params?: readonly QueryParam[]
  /** Essentials first: at 1440 px they fit without scrolling; the rest scroll to the right. */
  columns: readonly LedgerColumn[]
  /** SWR key prefix. */
  name: string
}

/**
 * A read-only screen over the stock ledger (tbl_product_stock_log): the engine's search form from the
 * declared params, a paged grid, 导出, and the document number of each row opening that document.
 */
export default function StockLedgerScreen(props: LedgerScreenProps) {
  const meta = useMeta()
  return <FeedbackProvider>{meta ? <LedgerGrid meta={meta} {...props} /> : null}</FeedbackProvider>
}

function LedgerGrid({ meta, base, exportKey, params: declared, columns: wanted, name }: LedgerScreenProps & { meta: Meta }) {
  const tr = useTr()
  const can = usePermission()
  const navigate = useNavigate()
  const { data: menus } = useMenus()
  const entries = useMemo(() => flattenFunctions(menus), [menus])
  const entity = meta.entity('productStockLog')
  const items = useMemo(() => searchItems(entity, declared ?? entity.file.views?.list?.query ?? [], meta.enums, meta.entityOrUndefined, 'list'), [entity, declared, meta])
  const [query, setQuery] = useState(() => toWireQuery(items, initialSearchValues(items), 'list'))
  const [page, setPage] = useState({ index: 1, size: DEFAULT_PAGE_SIZE })
  const [searchCount, setSearchCount] = useState(0)
  const params = { ...query, pageIndex: page.index, pageSize: page.size }
  const { data, isLoading } = useSWR([name, JSON.stringify(params), searchCount], () => api.get<Page<LedgerRow>>(`${base}/query`, params), {
    keepPreviousData: true,
    revalidateOnFocus: false,
  })
  const search = (values: Record<string, unknown>) => {
    setQuery(toWireQuery(items, values, 'list'))
    setPage((p) => ({ ...p, index: 1 }))
    setSearchCount((n) => n + 1)
  }
  const documentLink = (row: LedgerRow, text: string) => {
    const entityName = bizEntityName(meta.enums, row.bizType)
    const to = bizDocumentPath(entityName ? meta.entityOrUndefined(entityName) : undefined, entries, row.bizId)
    if (!to) return text
    return (
      <Button type="link" size="small" style={{ padding: 0 }} onClick={() => navigate(to)}>
        {text}
      </Button>
    )
  }
  const columns: ColumnType<LedgerRow>[] = [
    { key: '__seq', title: tr('序号'), width: SEQ_WIDTH, align: 'center', render: (_v, _r, i) => (page.index - 1) * page.size + i + 1 },
    ...wanted.map(
      (c): ColumnType<LedgerRow> => ({
        key: c.key,
        dataIndex: c.key,
        title: tr(c.title),
        width: c.width,
        align: c.numeric ? 'right' : undefined,
        ellipsis: !c.opensDocument,
        render: c.opensDocument ? (v: unknown, row) => documentLink(row, String(v ?? '')) : undefined,
      }),
    ),
  ]
  return (
    <div className="stock-ledger">
      <Card size="small" variant="borderless" style={{ marginBottom: 12 }}>
        <QueryForm items={items} onSearch={search} />
      </Card>
      <Card size="small" variant="borderless">
        {can(exportKey) && (
          <Space style={{ marginBottom: 12 }}>
            <ExportButton run={() => download('get', `${base}/export`, { query })} />
          </Space>
        )}
        <PagedTable<LedgerRow>
          rowKey="id"
          size="small"
          columns={columns}
          answer={data}
          loading={isLoading}
          page={page}
          onPage={setPage}
        />
      </Card>
    </div>
  )
}
