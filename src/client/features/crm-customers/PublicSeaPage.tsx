import { useState } from 'react'
import { Button, Card, Space, Table } from 'antd'
import type { ColumnType } from 'antd/es/table'
import { useNavigate } from 'react-router-dom'
import useSWR from 'swr'
import { useMeta, type Meta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import { DEFAULT_PAGE_SIZE, tablePagination } from '../../components/pager.js'
import { customerApi, customerPaths, type CustomerRow } from './customer-api.js'
import { customerColumns } from './customer-columns.js'
import CustomerSearch from './CustomerSearch.js'
import { useTr } from '../../i18n/use-tr.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const COLUMNS = ['code', 'name', 'level', 'contact', 'telephone', 'poolId', 'preOwnerId', 'poolTime', 'lastFollowTime', 'createTime']

/** 公海客户 (/crm/public-sea/index): the unowned customers of the caller's pools, with 领取. */
export default function PublicSeaPage() {
  const meta = useMeta()
  return <FeedbackProvider>{meta ? <PublicSea meta={meta} /> : null}</FeedbackProvider>
}

function PublicSea({ meta }: { meta: Meta }) {
  const tr = useTr()
  const can = usePermission()
  const navigate = useNavigate()
  const { message } = useFeedback()
  const [query, setQuery] = useState<Record<string, unknown>>({})
  const [page, setPage] = useState({ index: 1, size: DEFAULT_PAGE_SIZE })
  const [selected, setSelected] = useState<string[]>([])
  const params = { ...query, pageIndex: page.index, pageSize: page.size }
  const { data, isLoading, mutate } = useSWR(['crm-sea', JSON.stringify(params)], () => customerApi.sea(params), { keepPreviousData: true, revalidateOnFocus: false })
  const claim = async (ids: string[]) => {
    try {
      await customerApi.claim(ids)
      message.success(tr(`已领取${ids.length}个客户`))
      setSelected([])
    } catch {
      // The api layer has shown the server's message (e.g. 该客户已被领取).
    }
    await mutate()
  }
  const columns: ColumnType<CustomerRow>[] = [
    ...customerColumns(meta, COLUMNS),
    {
      key: '__actions',
      title: tr('操作'),
      fixed: 'right',
      width: 120,
      render: (_v, r) => (
        <Space size={4}>
          <a onClick={() => navigate(customerPaths.detail(r.id))}>{tr('详情')}</a>
          {can(PERMISSION.crm.publicSea.claim) && <a onClick={() => claim([r.id])}>{tr('领取')}</a>}
        </Space>
      ),
    },
  ]
  return (
    <Card>
      <CustomerSearch meta={meta} onSearch={(v) => (setQuery(v), setPage((p) => ({ ...p, index: 1 })))} />
      {can(PERMISSION.crm.publicSea.claim) && (
        <Button type="primary" style={{ marginBottom: 12 }} disabled={!selected.length} onClick={() => claim(selected)}>
          {tr('领取')}
        </Button>
      )}
      <Table<CustomerRow>
        rowKey="id"
        size="middle"
        loading={isLoading}
        columns={columns}
        dataSource={data?.datas ?? []}
        scroll={{ x: 1400 }}
        rowSelection={can(PERMISSION.crm.publicSea.claim) ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) } : undefined}
        pagination={tablePagination({ index: page.index, size: page.size }, data?.totalCount ?? 0, setPage)}
      />
    </Card>
  )
}
