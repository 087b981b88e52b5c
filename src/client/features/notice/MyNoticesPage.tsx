import SearchButtons from '../../components/SearchButtons.js'
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { Card, Col, Form, Input, Row, Select, Table, Tag, Typography } from 'antd'
import type { ColumnType } from 'antd/es/table'
import useSWR from 'swr'
import { useSession } from '../../app/session.js'
import { tablePagination, usePageState } from '../../components/pager.js'
import { SEQ_WIDTH } from '../../runtime/list-columns.js'
import { BELL_QUERY, myNoticesKey, queryMyNotices, type MyNotice, type MyNoticeQuery } from './notice-api.js'
import { useTr } from '../../i18n/use-tr.js'

const NoticeViewer = lazy(() => import('./NoticeViewer.js'))

const ALL = 'all'
type ReadedChoice = typeof ALL | 'true' | 'false'
interface Conditions {
  title?: string
  readed: ReadedChoice
}
const INITIAL: Conditions = { title: undefined, readed: ALL }

const readedOptions = (tr: (text: string) => string) => [
  { label: tr('全部'), value: ALL },
  { label: tr('未读'), value: 'false' },
  { label: tr('已读'), value: 'true' },
]

/** 已读 / 未读 as a tag. */
export function ReadedTag({ readed }: { readed: boolean }) {
  const tr = useTr()
  return readed ? <Tag color="default">{tr('已读')}</Tag> : <Tag color="processing">{tr('未读')}</Tag>
}

/**
 * 系统通知 (menu /system/notice): the signed-in user's published notices with their read state,
 * searchable by title and read state. A title opens the viewer, which marks the notice read.
 */
export default function MyNoticesPage() {
  const tr = useTr()
  const { token } = useSession()
  const [form] = Form.useForm<Conditions>()
  const [conditions, setConditions] = useState<Conditions>(INITIAL)
  const [page, setPage] = usePageState()
  const [searchCount, setSearchCount] = useState(0)
  const [viewing, setViewing] = useState<MyNotice | null>(null)
  // Mounted from the first opening on, so closing plays the dialog's animation.
  const [viewerUsed, setViewerUsed] = useState(false)
  const view = (row: MyNotice) => {
    setViewerUsed(true)
    setViewing(row)
  }

  const query: MyNoticeQuery = {
    pageIndex: page.index,
    pageSize: page.size,
    title: conditions.title?.trim() || undefined,
    readed: conditions.readed === ALL ? undefined : conditions.readed === 'true',
  }
  const { data, isLoading, mutate } = useSWR([...myNoticesKey(token, query), searchCount], () => queryMyNotices(query), {
    keepPreviousData: true,
  })
  // The bell's poll (same key, shared): the unread count, and a cue that new notices arrived.
  const { data: unread } = useSWR(myNoticesKey(token, BELL_QUERY), () => queryMyNotices(BELL_QUERY, true))
  const unreadCount = unread?.totalCount
  const lastUnread = useRef(unreadCount)
  useEffect(() => {
    if (unreadCount === undefined) return
    if (lastUnread.current !== undefined && unreadCount > lastUnread.current) void mutate()
    lastUnread.current = unreadCount
  }, [unreadCount, mutate])

  const search = () => {
    setConditions(form.getFieldsValue(true))
    setPage((p) => ({ ...p, index: 1 }))
    setSearchCount((n) => n + 1)
  }
  const reset = () => {
    form.resetFields()
    setConditions(INITIAL)
    setPage((p) => ({ ...p, index: 1 }))
    setSearchCount((n) => n + 1)
  }

  const columns: ColumnType<MyNotice>[] = [
    {
      key: '__seq',
      title: tr('序号'),
      width: SEQ_WIDTH,
      align: 'center',
      render: (_v, _row, i) => (page.index - 1) * page.size + i + 1,
    },
    {
      key: 'title',
      dataIndex: 'title',
      title: tr('标题'),
      render: (_v, row) => (
        <Typography.Link className={row.readed ? undefined : 'notice-unread-title'} onClick={() => view(row)}>
          {row.title}
        </Typography.Link>
      ),
    },
    { key: 'publishTime', dataIndex: 'publishTime', title: tr('发布时间'), width: 200, render: (v: string | null) => v ?? '-' },
    { key: 'readed', dataIndex: 'readed', title: tr('状态'), width: 100, align: 'center', render: (v: boolean) => <ReadedTag readed={v} /> },
  ]

  return (
    <div className="entity-list notice-my-page">
      <Card size="small" variant="borderless" style={{ marginBottom: 12 }}>
        <Form form={form} name="notice-my-query" initialValues={INITIAL} onFinish={search} labelCol={{ flex: '90px' }} labelWrap>
          <Row gutter={16}>
            <Col xs={24} sm={12} md={8} lg={6}>
              <Form.Item label={tr('标题')} name="title" style={{ marginBottom: 12 }}>
                <Input allowClear placeholder={tr('请输入标题')} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12} md={8} lg={6}>
              <Form.Item label={tr('状态')} name="readed" style={{ marginBottom: 12 }}>
                <Select options={readedOptions(tr)} aria-label={tr('状态')} />
              </Form.Item>
            </Col>
            <Col flex="auto">
              <SearchButtons onReset={reset} />
            </Col>
          </Row>
        </Form>
      </Card>
      <Card size="small" variant="borderless">
        <div className="notice-my-summary" aria-live="polite">
          {unreadCount === undefined ? null : unreadCount > 0 ? (
            <Typography.Text>
              {tr('您有')} <Typography.Text strong>{unreadCount}</Typography.Text> {tr('条未读通知')}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">{tr('暂无未读通知')}</Typography.Text>
          )}
        </div>
        <Table<MyNotice>
          rowKey="id"
          size="middle"
          bordered
          columns={columns}
          dataSource={data?.datas ?? []}
          loading={isLoading}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: tr('暂无通知') }}
          pagination={tablePagination(page, data?.totalCount ?? 0, setPage)}
        />
      </Card>
      <Suspense fallback={null}>
        {viewerUsed && <NoticeViewer id={viewing?.id ?? null} title={viewing?.title} onClose={() => setViewing(null)} />}
      </Suspense>
    </div>
  )
}
