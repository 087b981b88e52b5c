import { List, Tag, Typography } from 'antd'
import { useNavigate } from 'react-router-dom'
import { hasPermission, useSession } from '../../app/session.js'
import { registerBellTodo } from '../notice/bell-todos.js'
import { useCall } from '../../app/use-call.js'
import { crmMemorials, type MemorialRow } from '../../../shared/contracts/crm-deals.js'
import { useTr } from '../../i18n/use-tr.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/** Reminders change by the day: once a minute is plenty. */
const REMIND_INTERVAL_MS = 60_000

function useReminders(): MemorialRow[] {
  const session = useSession()
  const allowed = Boolean(session.token) && hasPermission(session, PERMISSION.crm.memorial.query)
  const { data } = useCall(allowed && crmMemorials.reminders, undefined, {
    hideError: true,
    swr: { refreshInterval: REMIND_INTERVAL_MS, refreshWhenHidden: false, keepPreviousData: true },
  })
  return data ?? []
}

function Reminders({ close }: { close: () => void }) {
  const tr = useTr()
  const rows = useReminders()
  const navigate = useNavigate()
  return (
    <List<MemorialRow>
      size="small"
      header={<Typography.Text strong>{tr('纪念日提醒')}</Typography.Text>}
      dataSource={rows}
      renderItem={(r) => (
        <List.Item
          style={{ cursor: 'pointer' }}
          onClick={() => {
            close()
            navigate('/crm/memorial')
          }}
        >
          <Typography.Text ellipsis={{ tooltip: r.title }} style={{ maxWidth: 180 }}>
            {r.title}
          </Typography.Text>
          <Tag color={r.daysLeft === 0 ? 'red' : 'orange'}>{r.daysLeft === 0 ? tr('今天') : tr(`${r.daysLeft}天后`)}</Tag>
        </List.Item>
      )}
    />
  )
}

registerBellTodo({ key: 'crm-memorial', useCount: () => useReminders().length, render: (close) => <Reminders close={close} /> })
