import { useState } from 'react'
import { Button, Card, Space } from 'antd'
import { ConfirmLink } from '../../components/ConfirmLink.js'
import { PlusOutlined } from '@ant-design/icons'
import { useNavigate } from 'react-router-dom'
import { useMeta, type Meta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import ListView from '../../runtime/ListView.js'
import { ACTION_VIEW } from '../../views/crm-customers.js'
import { customerPaths } from './customer-api.js'
import { call } from '../../api/call.js'
import { useCall } from '../../app/use-call.js'
import { crmActions, type ActionRow } from '../../../shared/contracts/crm-customers.js'
import ActionFormModal from './ActionFormModal.js'
import { useTr } from '../../i18n/use-tr.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/**
 * 跟进记录 (/crm/action/index, views/crm-customers.ts): follow-ups the user may see (own, department or
 * all by the keys), with 写跟进, 删除 (own ones) and 导出 (xlsx of the current conditions); a due list on top.
 */
export default function ActionListPage() {
  const meta = useMeta()
  return <FeedbackProvider>{meta ? <ActionList meta={meta} /> : null}</FeedbackProvider>
}

function ActionList({ meta }: { meta: Meta }) {
  const tr = useTr()
  const can = usePermission()
  const navigate = useNavigate()
  const { message } = useFeedback()
  const [adding, setAdding] = useState(false)
  const [version, setVersion] = useState(0)
  const { data: due, mutate: refreshDue } = useCall(crmActions.due, { days: 3 }, { swr: { revalidateOnFocus: false } })
  const { data: figures, mutate: refreshFigures } = useCall(crmActions.figures, undefined, { swr: { revalidateOnFocus: false } })
  // A follow-up written or deleted changes the list and the figures above it.
  const changed = () => {
    setVersion((v) => v + 1)
    void refreshFigures()
  }
  const remove = async (row: ActionRow) => {
    try {
      await call(crmActions.remove, { ids: [row.id] })
      message.success(tr('删除成功'))
      changed()
    } catch {
      // shown by the api layer
    }
  }
  return (
    <ListView<ActionRow>
      source={ACTION_VIEW}
      version={version}
      render={{ customerId: (r) => <a onClick={() => navigate(customerPaths.detail(r.customerId))}>{String(r.customerName ?? '')}</a> }}
      rowActionsWidth={80}
      renderRowActions={(r) =>
        can(PERMISSION.crm.action.delete) && (
          <ConfirmLink title={tr('确定删除该跟进记录？')} onConfirm={() => remove(r)}>
            {tr('删除')}
          </ConfirmLink>
        )
      }
      renderToolbar={() => [
        can(PERMISSION.crm.action.add) && (
          <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            {tr('写跟进')}
          </Button>
        ),
      ]}
      before={
        <>
          {figures && (
            <Space size="large" style={{ marginBottom: 12 }} wrap>
              <span>
                {tr('我的客户：')}
                {figures.customerCount}
              </span>
              <span>
                {tr('今日跟进：')}
                {figures.actionToday}
              </span>
              <span>
                {tr('本月跟进：')}
                {figures.actionMonth}
              </span>
              <span>
                {tr('今日待跟进：')}
                {figures.dueToday}
              </span>
              <span style={{ color: figures.overdue ? '#cf1322' : undefined }}>
                {tr('已逾期：')}
                {figures.overdue}
              </span>
              <span>
                {tr('即将回收公海：')}
                {figures.comingReturn}
              </span>
            </Space>
          )}
          {due && due.length > 0 && (
            <Card size="small" title={tr('近3天待跟进')} style={{ marginBottom: 12 }}>
              {due.slice(0, 8).map((d) => (
                <div key={d.customerId}>
                  <a onClick={() => navigate(customerPaths.detail(d.customerId))}>{d.name}</a>
                  <span style={{ marginLeft: 8, color: d.overdue ? '#cf1322' : '#888' }}>
                    {d.nextFollowTime} {d.overdue ? tr('（已逾期）') : ''} {d.nextContent ?? ''}
                  </span>
                </div>
              ))}
            </Card>
          )}
        </>
      }
      after={<ActionFormModal meta={meta} open={adding} onClose={() => setAdding(false)} onSaved={() => (setAdding(false), changed(), void refreshDue())} />}
    />
  )
}
