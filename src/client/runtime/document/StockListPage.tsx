import SearchCard from '../../components/SearchCard.js'
import { useState } from 'react'
import { Card, Col, Form, Input, Space } from 'antd'
import type { ColumnType } from 'antd/es/table'
import useSWR from 'swr'
import { api, download, type Page } from '../../api/http.js'
import { usePermission } from '../../app/session.js'
import PickerInput from '../picker/PickerInput.js'
import { FeedbackProvider } from '../../components/feedback.js'
import { SEQ_WIDTH } from '../list-columns.js'
import { DEFAULT_PAGE_SIZE } from '../../components/pager.js'
import { term, useTr } from '../../i18n/use-tr.js'
import { ExportButton } from '../../components/ExportButton.js'
import { PagedTable } from '../../components/PagedTable.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

type StockRow = Record<string, unknown> & { id: string }

// Essentials first (product, warehouse, quantity, cost): at 1440 px they fit; the details scroll right.
const COLUMNS: { key: string; title: string; width: number; numeric?: boolean }[] = [
  { key: 'productCode', title: term('商品编号'), width: 120 },
  { key: 'productName', title: term('商品名称'), width: 180 },
  { key: 'scName', title: term('仓库名称'), width: 140 },
  { key: 'stockNum', title: term('库存数量'), width: 100, numeric: true },
  { key: 'taxPrice', title: term('含税成本价'), width: 120, numeric: true },
  { key: 'taxAmount', title: term('含税成本金额'), width: 130, numeric: true },
  { key: 'unit', title: term('单位'), width: 70 },
  { key: 'skuCode', title: term('SKU编号'), width: 120 },
  { key: 'spec', title: term('规格'), width: 100 },
  { key: 'categoryName', title: term('类目'), width: 120 },
  { key: 'brandName', title: term('品牌'), width: 120 },
  { key: 'scCode', title: term('仓库编号'), width: 120 },
]

/**
 * 库存 → 商品库存 (`GET /stock/product/query`): one row per product and warehouse with its quantity and
 * moving-average unit cost, filtered by warehouse and product code, name or SKU; 导出 as xlsx.
 */
export default function StockListPage() {
  return (
    <FeedbackProvider>
      <StockList />
    </FeedbackProvider>
  )
}

function StockList() {
  const tr = useTr()
  const can = usePermission()
  const [form] = Form.useForm<Record<string, unknown>>()
  const [query, setQuery] = useState<Record<string, unknown>>({})
  const [page, setPage] = useState({ index: 1, size: DEFAULT_PAGE_SIZE })
  const [searchCount, setSearchCount] = useState(0)
  const params = { ...query, pageIndex: page.index, pageSize: page.size }
  const { data, isLoading } = useSWR(['stock-product', JSON.stringify(params), searchCount], () => api.get<Page<StockRow>>('/stock/product/query', params), {
    keepPreviousData: true,
    revalidateOnFocus: false,
  })
  const search = () => {
    setQuery(form.getFieldsValue())
    setPage((p) => ({ ...p, index: 1 }))
    setSearchCount((n) => n + 1)
  }
  const columns: ColumnType<StockRow>[] = [
    { key: '__seq', title: tr('序号'), width: SEQ_WIDTH, align: 'center', render: (_v, _r, i) => (page.index - 1) * page.size + i + 1 },
    ...COLUMNS.map((c): ColumnType<StockRow> => ({ key: c.key, dataIndex: c.key, title: tr(c.title), width: c.width, align: c.numeric ? 'right' : undefined, ellipsis: true })),
  ]
  return (
    <div className="stock-list">
      <SearchCard form={form} onSearch={search} buttonSpan={24}>
        <Col span={6}>
          <Form.Item name="scId" label={tr('仓库')}>
            <PickerInput kind="sc" aria-label={tr('仓库')} placeholder={tr('请选择仓库')} />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="productCode" label={tr('商品编号')}>
            <Input aria-label={tr('商品编号')} allowClear />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="productName" label={tr('商品名称')}>
            <Input aria-label={tr('商品名称')} allowClear />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="skuCode" label={tr('SKU编号')}>
            <Input aria-label={tr('SKU编号')} allowClear />
          </Form.Item>
        </Col>
      </SearchCard>
      <Card size="small" variant="borderless">
        {can(PERMISSION.stock.product.export) && (
          <Space style={{ marginBottom: 12 }}>
            <ExportButton run={() => download('post', '/stock/product/export', { query })} />
          </Space>
        )}
        <PagedTable<StockRow>
          rowKey={(r) => String(r.id ?? `${String(r.scId)}-${String(r.productId)}`)}
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
