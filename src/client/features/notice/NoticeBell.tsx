import { lazy, Suspense, useState } from 'react'
import { Badge, Button, Empty, List, Popover, Tabs, Typography } from 'antd'
import { BellOutlined } from '@ant-design/icons'
import { useNavigate } from 'react-router-dom'
import type { MenuEntry } from '../../app/menus.js'
import { BELL_POLL, BELL_QUERY, type MyNotice } from './notice-api.js'
import { useCall } from '../../app/use-call.js'
import { notices as noticeCalls } from '../../../shared/contracts/notices.js'
import { bellTodos } from './bell-todos.js'
import { BELL_MESSAGES, messageLink, messageText } from '../bus/bus-api.js'
import { busCalls } from '../../../shared/contracts/bus.js'
import { BusEvent, type BusMessage } from '../../../shared/contracts/bus.js'
import './notice.css'
import { useTr } from '../../i18n/use-tr.js'

const NoticeViewer = lazy(() => import('./NoticeViewer.js'))

/** The menu path of 系统通知 (my notices), where 查看更多 goes. */
export const NOTICE_PAGE_PATH = '/system/notice'

/**
 * Header notice bell (000 §2): the unread count on a badge, and a panel with tabs 通知 / 消息 / 待办.
 * Unread notices are pulled every 5000 ms (20, page 1, readed=false; 000 §9) while the browser tab
 * is visible, without error messages, and at once when the bus says a notice was published (BusBridge).
 * 消息 lists the bus messages sent to the user (`/message/bus/query`) but the notices 通知 shows, refreshed when one
 * arrives and whenever the tab is opened.
 */
export function NoticeBell({ entries }: { entries: MenuEntry[] }) {
  const tr = useTr()
  const navigate = useNavigate()
  const [open, setOpen] = useState(false)
  const [tab, setTab] = useState('notice')
  const [viewing, setViewing] = useState<MyNotice | null>(null)
  const [viewerUsed, setViewerUsed] = useState(false)
  const { data } = useCall(noticeCalls.my, BELL_QUERY, {
    hideError: true,
    swr: BELL_POLL,
  })
  const { data: messagePage, mutate: reloadMessages } = useCall(busCalls.query, BELL_MESSAGES, { hideError: true, swr: { revalidateOnFocus: true, keepPreviousData: true } })
  // A personal notice also travels as a sysNotice message: it is the 通知 tab's, not listed twice.
  const messages = (messagePage?.datas ?? []).filter((m) => m.bizType !== BusEvent.sysNotice)
  const todos = bellTodos()
  const todoCounts = todos.map((t) => t.useCount())
  const todoCount = todoCounts.reduce((a, b) => a + b, 0)
  const count = data?.totalCount ?? 0
  const notices = data?.datas ?? []
  const canSeeAll = entries.some((e) => e.menu.path === NOTICE_PAGE_PATH)

  const view = (notice: MyNotice) => {
    setOpen(false)
    setViewerUsed(true)
    setViewing(notice)
  }

  const noticeTab = notices.length ? (
    <List<MyNotice>
      className="notice-bell-list"
      size="small"
      dataSource={notices}
      renderItem={(n) => (
        <List.Item key={n.id} className="notice-bell-item">
          <button type="button" className="notice-bell-item-button" onClick={() => view(n)}>
            <Typography.Text className="notice-bell-item-title" ellipsis={{ tooltip: n.title }}>
              {n.title}
            </Typography.Text>
            <Typography.Text type="secondary" className="notice-bell-item-time">
              {n.publishTime ?? ''}
            </Typography.Text>
          </button>
        </List.Item>
      )}
    />
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={tr('暂无通知')} />
  )

  const messageTab = messages.length ? (
    <List<BusMessage>
      className="notice-bell-list"
      size="small"
      dataSource={messages}
      renderItem={(m) => {
        const link = messageLink(m)
        return (
          <List.Item key={m.id} className="notice-bell-item">
            <button
              type="button"
              className="notice-bell-item-button"
              disabled={!link}
              onClick={() => {
                if (!link) return
                setOpen(false)
                navigate(link)
              }}
            >
              <Typography.Text className="notice-bell-item-title" ellipsis={{ tooltip: messageText(m) }}>
                {messageText(m)}
              </Typography.Text>
              <Typography.Text type="secondary" className="notice-bell-item-time">
                {m.createTime}
              </Typography.Text>
            </button>
          </List.Item>
        )
      }}
    />
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={tr('暂无消息')} />
  )

  const panel = (
    <div className="notice-bell-panel">
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          setTab(key)
          // Opened, the tab reads afresh: a message sent before the bus connection was up has no event of its own.
          if (key === 'message') void reloadMessages()
        }}
        centered
        items={[
          { key: 'notice', label: count ? tr(`通知（${count}）`) : tr('通知'), children: noticeTab },
          { key: 'message', label: tr('消息'), children: messageTab },
          {
            key: 'todo',
            label: todoCount ? tr(`待办（${todoCount}）`) : tr('待办'),
            children: todoCount ? todos.map((t, i) => (todoCounts[i] ? <div key={t.key}>{t.render(() => setOpen(false))}</div> : null)) : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={tr('暂无待办')} />,
          },
        ]}
      />
      {tab === 'notice' && canSeeAll && (
        <div className="notice-bell-footer">
          <Button
            type="link"
            onClick={() => {
              setOpen(false)
              navigate(NOTICE_PAGE_PATH)
            }}
          >
            {tr('查看更多')}
          </Button>
        </div>
      )}
    </div>
  )

  return (
    <>
      <Popover
        trigger="click"
        placement="bottomRight"
        arrow={false}
        open={open}
        onOpenChange={(next) => {
          setOpen(next)
          if (next && tab === 'message') void reloadMessages()
        }}
        content={panel}
        styles={{ body: { padding: 0 } }}
        destroyOnHidden
      >
        <button type="button" className="notice-bell" aria-label={count ? tr(`通知（${count}条未读）`) : tr('通知')} data-unread={count}>
          <Badge count={count + todoCount} overflowCount={99} size="small">
            <BellOutlined className="notice-bell-icon" />
          </Badge>
        </button>
      </Popover>
      <Suspense fallback={null}>
        {viewerUsed && <NoticeViewer id={viewing?.id ?? null} title={viewing?.title} onClose={() => setViewing(null)} />}
      </Suspense>
    </>
  )
}
