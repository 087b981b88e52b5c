import { useEffect, useRef } from 'react'
import { Button, Modal, Result, Spin, Typography } from 'antd'
import { useSWRConfig } from 'swr'
import { refreshMyNotices } from './notice-api.js'
import { useCall } from '../../app/use-call.js'
import { notices } from '../../../shared/contracts/notices.js'
import SafeHtml from './SafeHtml.js'
import { useTr } from '../../i18n/use-tr.js'

export interface NoticeViewerProps {
  /** The notice to show; null closes the viewer. */
  id: string | null
  /** Title known from the list, shown while the content loads. */
  title?: string
  onClose: () => void
}

/**
 * 通知 viewer: the notice's title, publish time and sanitised content. Loading it marks it read on
 * the server, so every notice list (the bell's unread count too) is fetched again.
 */
export default function NoticeViewer({ id, title, onClose }: NoticeViewerProps) {
  const tr = useTr()
  const { mutate } = useSWRConfig()
  // Fetched on every opening: reading is what marks it read.
  const { data, error, isLoading } = useCall(id ? notices.content : null, { id: id ?? '' }, {
    swr: { revalidateOnFocus: false, revalidateIfStale: true, dedupingInterval: 0 },
  })
  const refreshed = useRef<string | null>(null)
  useEffect(() => {
    if (!data || refreshed.current === data.id) return
    refreshed.current = data.id
    refreshMyNotices(mutate)
  }, [data, mutate])

  // The closing animation still shows the last notice.
  const last = useRef({ id, title })
  if (id) last.current = { id, title }
  const shown = data && data.id === last.current.id ? data : undefined
  return (
    <Modal
      open={Boolean(id)}
      title={shown?.title ?? last.current.title ?? tr('系统通知')}
      width={800}
      onCancel={onClose}
      afterClose={() => {
        refreshed.current = null
      }}
      footer={
        <Button type="primary" onClick={onClose}>
          {tr('关闭')}
        </Button>
      }
      destroyOnHidden
      className="notice-viewer"
    >
      {error ? (
        <Result status="warning" title={error instanceof Error ? error.message : tr('加载失败')} />
      ) : isLoading || !shown ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : (
        <>
          {shown.publishTime && (
            <Typography.Text type="secondary" className="notice-viewer-time">
              {tr('发布时间：')}
              {shown.publishTime}
            </Typography.Text>
          )}
          <SafeHtml html={shown.content} className="notice-viewer-content" empty={tr('（无内容）')} />
        </>
      )}
    </Modal>
  )
}
