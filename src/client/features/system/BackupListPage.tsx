import { useEffect, useRef, useState } from 'react'
import { Button } from 'antd'
import { CloudDownloadOutlined, SaveOutlined } from '@ant-design/icons'
import dayjs from 'dayjs'
import { download } from '../../api/http.js'
import { call } from '../../api/call.js'
import { useCall } from '../../app/use-call.js'
import { usePermission } from '../../app/session.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import ListView, { type ListRow } from '../../runtime/ListView.js'
import { BACKUP_VIEW } from '../../views/backups.js'
import { useTr } from '../../i18n/use-tr.js'
import { backup, type BackupRow } from '../../../shared/contracts/backup.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

type Row = BackupRow & ListRow

/** How often the page asks whether the backup it started has been written. */
const RUNNING_POLL_MS = 1500

/**
 * 备份管理 (menu component `/system/backup/index`, views/backups.ts): the archives with their time, size,
 * database and tenants; 立即备份 starts one (the list follows it until it is written); 下载 saves one.
 * Restoring replaces everything, so it stays the command `npm run restore` (README).
 */
export default function BackupListPage() {
  return (
    <FeedbackProvider>
      <BackupList />
    </FeedbackProvider>
  )
}

const sizeText = (bytes: number) => (bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`)

function BackupList() {
  const tr = useTr()
  const { message } = useFeedback()
  const can = usePermission()
  const [version, setVersion] = useState(0)
  const [started, setStarted] = useState(false)
  const { data: state } = useCall(backup.query, { pageIndex: 1, pageSize: 1 }, { swr: { refreshInterval: started ? RUNNING_POLL_MS : 0 } })
  const wasRunning = useRef(false)
  useEffect(() => {
    if (!state) return
    if (wasRunning.current && !state.running) {
      setStarted(false)
      setVersion((v) => v + 1)
      message.success(tr('备份完成'))
    }
    wasRunning.current = state.running
  }, [state, message, tr])
  const start = async () => {
    try {
      await call(backup.start)
      wasRunning.current = true
      setStarted(true)
      message.info(tr('备份已开始，完成后显示在列表中'))
    } catch {
      // The api layer has shown the server's message.
    }
  }
  return (
    <ListView<Row>
      className="system-backups"
      source={BACKUP_VIEW}
      version={version}
      render={{
        startedAt: (r) => dayjs(r.startedAt).format('YYYY-MM-DD HH:mm:ss'),
        size: (r) => sizeText(r.size),
        kind: (r) => (r.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'),
      }}
      renderToolbar={() => [
        can([PERMISSION.system.backup.add]) && (
          <Button key="start" type="primary" icon={<SaveOutlined aria-hidden />} loading={started || Boolean(state?.running)} onClick={() => void start()}>
            {tr('立即备份')}
          </Button>
        ),
      ]}
      rowActionsWidth={100}
      renderRowActions={(row) =>
        can([PERMISSION.system.backup.download]) && (
          <Button type="link" size="small" icon={<CloudDownloadOutlined aria-hidden />} onClick={() => void download('get', backup.download.path, { query: { name: row.name } }).catch(() => {})}>
            {tr('下载')}
          </Button>
        )
      }
      emptyText={tr('还没有备份')}
    />
  )
}
