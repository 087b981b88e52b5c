import { useState } from 'react'
import { Button, Card, Checkbox, Col, Drawer, Form, Input, Space, Typography } from 'antd'
import type { ColumnType } from 'antd/es/table'
import useSWR from 'swr'
import Decimal from 'decimal.js'
import { api, download, type Page } from '../../api/http.js'
import { usePermission } from '../../app/session.js'
import SearchCard from '../../components/SearchCard.js'
import { FeedbackProvider } from '../../components/feedback.js'
import { SEQ_WIDTH } from '../../runtime/list-columns.js'
import { DEFAULT_PAGE_SIZE } from '../../components/pager.js'
import type { BalanceSide } from './balance-sides.js'
import { useTr } from '../../i18n/use-tr.js'
import { ExportButton } from '../../components/ExportButton.js'
import { PagedTable } from '../../components/PagedTable.js'

interface PartyRow {
  partyId: string
  partyCode: string
  partyName: string
  balance: string
  documents: number
}

interface DocumentRow {
  againstType: number
  againstTypeName: string | null
  againstId: string
  againstCode: string
  totalAmount: string
  outstanding: string
  firstTime: string | null
}

/** Money as the server sends it (exact text), shown with 2 places; never through a float. */
const moneyText = (v: unknown) => {
  try {
    return new Decimal(String(v ?? 0)).toFixed(2)
  } catch {
    return String(v ?? '')
  }
}

const moneyColumn = <T,>(key: keyof T & string, title: string, width = 150): ColumnType<T> => ({
  key,
  dataIndex: key,
  title,
  width,
  align: 'right',
  render: (v: unknown) => moneyText(v),
})

/**
 * 供应商往来余额 / 客户往来余额: every party with settlement ledger rows, its balance (应付 / 应收) and how
 * many documents are still open; clicking a party opens the documents behind the balance. 导出 on both.
 */
export default function SettleBalancePage({ side }: { side: BalanceSide }) {
  return (
    <FeedbackProvider>
      <BalanceList side={side} />
    </FeedbackProvider>
  )
}

function BalanceList({ side }: { side: BalanceSide }) {
  const tr = useTr()
  const can = usePermission()
  const [form] = Form.useForm<Record<string, unknown>>()
  const [query, setQuery] = useState<Record<string, unknown>>({})
  const [page, setPage] = useState({ index: 1, size: DEFAULT_PAGE_SIZE })
  const [searchCount, setSearchCount] = useState(0)
  const [open, setOpen] = useState<PartyRow | null>(null)
  const params = { ...query, pageIndex: page.index, pageSize: page.size }
  const { data, isLoading } = useSWR([side.base, JSON.stringify(params), searchCount], () => api.get<Page<PartyRow>>(side.base, params), {
    keepPreviousData: true,
    revalidateOnFocus: false,
  })
  const search = () => {
    const values = form.getFieldsValue()
    setQuery({ code: values.code, name: values.name, onlyNonZero: values.onlyNonZero ? 'true' : undefined })
    setPage((p) => ({ ...p, index: 1 }))
    setSearchCount((n) => n + 1)
  }
  const columns: ColumnType<PartyRow>[] = [
    { key: '__seq', title: tr('序号'), width: SEQ_WIDTH, align: 'center', render: (_v, _r, i) => (page.index - 1) * page.size + i + 1 },
    {
      key: 'partyCode',
      dataIndex: 'partyCode',
      title: tr(`${side.partyLabel}编号`),
      width: 140,
      render: (v: string, row) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setOpen(row)} title={tr(`查看${row.partyName}的往来单据`)}>
          {v}
        </Button>
      ),
    },
    { key: 'partyName', dataIndex: 'partyName', title: tr(`${side.partyLabel}名称`), width: 200, ellipsis: true },
    moneyColumn<PartyRow>('balance', tr(side.balanceLabel)),
    { key: 'documents', dataIndex: 'documents', title: tr('未结清单据数'), width: 120, align: 'right' },
    {
      key: '__actions',
      title: tr('操作'),
      width: 100,
      align: 'center',
      render: (_v, row) => (
        <Button type="link" size="small" onClick={() => setOpen(row)}>
          {tr('往来单据')}
        </Button>
      ),
    },
  ]
  return (
    <div className="settle-balance">
      <SearchCard form={form} onSearch={search} buttonSpan={24}>
        <Col span={6}>
          <Form.Item name="code" label={tr(`${side.partyLabel}编号`)}>
            <Input aria-label={tr(`${side.partyLabel}编号`)} allowClear />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="name" label={tr(`${side.partyLabel}名称`)}>
            <Input aria-label={tr(`${side.partyLabel}名称`)} allowClear />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="onlyNonZero" valuePropName="checked">
            <Checkbox>{tr('仅显示余额不为0')}</Checkbox>
          </Form.Item>
        </Col>
      </SearchCard>
      <Card size="small" variant="borderless">
        {can(side.exportKey) && (
          <Space style={{ marginBottom: 12 }}>
            <ExportButton run={() => download('post', `${side.base}/export`, { query })} />
          </Space>
        )}
        <PagedTable<PartyRow>
          rowKey="partyId"
          columns={columns}
          answer={data}
          loading={isLoading}
          page={page}
          onPage={setPage}
        />
      </Card>
      <Drawer
        open={!!open}
        onClose={() => setOpen(null)}
        width={860}
        destroyOnHidden
        title={open ? tr(`${open.partyName}（${open.partyCode}）往来单据`) : ''}
      >
        {open && <PartyDocuments side={side} party={open} canExport={can(side.exportKey)} />}
      </Drawer>
    </div>
  )
}

function PartyDocuments({ side, party, canExport }: { side: BalanceSide; party: PartyRow; canExport: boolean }) {
  const tr = useTr()
  const [onlyOpen, setOnlyOpen] = useState(true)
  const [page, setPage] = useState({ index: 1, size: DEFAULT_PAGE_SIZE })
  const params = { [side.idParam]: party.partyId, onlyOpen: onlyOpen ? 'true' : undefined, pageIndex: page.index, pageSize: page.size }
  const { data, isLoading } = useSWR([`${side.base}/documents`, JSON.stringify(params)], () => api.get<Page<DocumentRow>>(`${side.base}/documents`, params), {
    keepPreviousData: true,
    revalidateOnFocus: false,
  })
  const columns: ColumnType<DocumentRow>[] = [
    { key: '__seq', title: tr('序号'), width: SEQ_WIDTH, align: 'center', render: (_v, _r, i) => (page.index - 1) * page.size + i + 1 },
    { key: 'againstTypeName', dataIndex: 'againstTypeName', title: tr('单据类型'), width: 140 },
    { key: 'againstCode', dataIndex: 'againstCode', title: tr('单据号'), width: 200 },
    moneyColumn<DocumentRow>('totalAmount', tr('单据金额'), 140),
    moneyColumn<DocumentRow>('outstanding', tr('未结金额'), 140),
    { key: 'firstTime', dataIndex: 'firstTime', title: tr('记账时间'), width: 170 },
  ]
  return (
    <>
      <Space style={{ marginBottom: 12 }} wrap>
        <span>
          {side.balanceLabel}：<Typography.Text strong>{moneyText(party.balance)}</Typography.Text>
        </span>
        <Checkbox
          checked={onlyOpen}
          onChange={(e) => {
            setOnlyOpen(e.target.checked)
            setPage((p) => ({ ...p, index: 1 }))
          }}
        >
          {tr('仅显示未结清单据')}
        </Checkbox>
        {canExport && (
          <ExportButton run={() => download('post', `${side.base}/documents/export`, { query: { [side.idParam]: party.partyId, onlyOpen: onlyOpen ? 'true' : undefined } })} />
        )}
      </Space>
      <PagedTable<DocumentRow>
        rowKey={(r) => `${r.againstType}-${r.againstId}`}
        size="small"
        columns={columns}
        answer={data}
        loading={isLoading}
        page={page}
        onPage={setPage}
      />
    </>
  )
}
