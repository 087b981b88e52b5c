import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { Typography } from 'antd'
import ListView from '../../runtime/ListView.js'
import { useCall } from '../../app/use-call.js'
import { notices, type MyNotice } from '../../../shared/contracts/notices.js'
import { MY_NOTICES_VIEW } from '../../views/my-notices.js'
import { BELL_QUERY } from './notice-api.js'
import { useTr } from '../../i18n/use-tr.js'

const NoticeViewer = lazy(() => import('./NoticeViewer.js'))

/**
 * 系统通知 (menu /system/notice): the declared view of the signed-in user's notices with their read
 * state. A title opens the viewer, which marks the notice read (the list and the bell reload).
 */
export default function MyNoticesPage() {
  const tr = useTr()
  const [viewing, setViewing] = useState<MyNotice | null>(null)
  // Mounted from the first opening on, so closing plays the dialog's animation.
  const [viewerUsed, setViewerUsed] = useState(false)
  const [version, setVersion] = useState(0)
  const view = (row: MyNotice) => {
    setViewerUsed(true)
    setViewing(row)
  }

  // The bell's poll (same call and params, one cache entry): the unread count, and a cue that new notices arrived.
  const { data: unread } = useCall(notices.my, BELL_QUERY, { hideError: true })
  const unreadCount = unread?.totalCount
  const lastUnread = useRef(unreadCount)
  useEffect(() => {
    if (unreadCount === undefined) return
    if (lastUnread.current !== undefined && unreadCount > lastUnread.current) setVersion((v) => v + 1)
    lastUnread.current = unreadCount
  }, [unreadCount])

  return (
    <ListView<MyNotice>
      source={MY_NOTICES_VIEW}
      className="entity-list notice-my-page"
      version={version}
      emptyText={tr('暂无通知')}
      render={{
        title: (row) => (
          <Typography.Link className={row.readed ? undefined : 'notice-unread-title'} onClick={() => view(row)}>
            {row.title}
          </Typography.Link>
        ),
        publishTime: (row) => row.publishTime ?? '-',
      }}
      header={
        <div className="notice-my-summary" aria-live="polite">
          {unreadCount === undefined ? null : unreadCount > 0 ? (
            <Typography.Text>
              {tr('您有')} <Typography.Text strong>{unreadCount}</Typography.Text> {tr('条未读通知')}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">{tr('暂无未读通知')}</Typography.Text>
          )}
        </div>
      }
      after={
        <Suspense fallback={null}>
          {viewerUsed && <NoticeViewer id={viewing?.id ?? null} title={viewing?.title} onClose={() => setViewing(null)} />}
        </Suspense>
      }
    />
  )
}
