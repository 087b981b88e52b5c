import { useState } from 'react'
import { Button, Tag, Typography } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import dayjs from 'dayjs'
import { call } from '../../api/call.js'
import { usePermission } from '../../app/session.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import ListView, { type ListRow } from '../../runtime/ListView.js'
import { API_TOKENS_VIEW } from '../../views/api-tokens.js'
import { useTr } from '../../i18n/use-tr.js'
import { apiTokens, type ApiTokenRow, type MadeApiToken } from '../../../shared/contracts/api-tokens.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'
import NewTokenDialog from './NewTokenDialog.js'
import TokenShownDialog from './TokenShownDialog.js'

type Row = ApiTokenRow & ListRow
const KEYS = PERMISSION.system.apiToken

/**
 * 接口令牌 (系统管理, menu component `/system/api-token/index`, views/api-tokens.ts): the caller's tokens
 * for integrations with their keys, expiry and last use; 新建令牌 shows the token once; 吊销 ends it at
 * once. A holder of 管理其他用户的令牌 sees and manages every user's (a service user's) tokens.
 */
export default function ApiTokenPage() {
  return (
    <FeedbackProvider>
      <ApiTokenList />
    </FeedbackProvider>
  )
}

function ApiTokenList() {
  const tr = useTr()
  const { message, modal } = useFeedback()
  const can = usePermission()
  const [version, setVersion] = useState(0)
  const [adding, setAdding] = useState(false)
  const [shown, setShown] = useState<(MadeApiToken & { name: string }) | null>(null)
  const reload = () => setVersion((v) => v + 1)
  const expired = (r: Row) => !dayjs(r.expireTime).isAfter(dayjs())
  const revoke = (row: Row) =>
    modal.confirm({
      title: tr(`确定吊销令牌「${row.name}」吗？`),
      content: tr('吊销后使用该令牌的调用将立即被拒绝，且无法恢复。'),
      okText: tr('吊销'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await call(apiTokens.revoke, { id: row.id })
          void message.success(tr('令牌已吊销'))
          reload()
        } catch {
          // The api layer has shown the server's message.
        }
      },
    })
  return (
    <ListView<Row>
      className="api-tokens"
      source={API_TOKENS_VIEW}
      version={version}
      render={{
        permissions: (r) => r.permissions.length,
        lastUsedTime: (r) => (r.lastUsedTime ? dayjs(r.lastUsedTime).format('YYYY-MM-DD HH:mm:ss') : <Typography.Text type="secondary">{tr('从未使用')}</Typography.Text>),
        state: (r) => (expired(r) ? <Tag>{tr('已过期')}</Tag> : <Tag color="success">{tr('有效')}</Tag>),
      }}
      renderToolbar={() => [
        can([KEYS.add]) && (
          <Button key="add" type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setAdding(true)}>
            {tr('新建令牌')}
          </Button>
        ),
      ]}
      rowActionsWidth={90}
      renderRowActions={(row) =>
        can([KEYS.delete]) && (
          <Button type="link" size="small" danger onClick={() => revoke(row)}>
            {tr('吊销')}
          </Button>
        )
      }
      emptyText={tr('还没有接口令牌')}
      after={
        <>
          {adding && (
            <NewTokenDialog
              forOthers={can([KEYS.others])}
              onClose={() => setAdding(false)}
              onMade={(made) => {
                setAdding(false)
                setShown(made)
                reload()
              }}
            />
          )}
          {shown && <TokenShownDialog name={shown.name} token={shown.token} onClose={() => setShown(null)} />}
        </>
      }
    />
  )
}
