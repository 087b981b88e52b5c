import { useEffect, useState } from 'react'
import { Empty, Table, Tabs, Tag, Timeline } from 'antd'
import type { Meta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import { useCall } from '../../app/use-call.js'
import { crmActions, crmCustomers, type ActionRow } from '../../../shared/contracts/crm-customers.js'
import { customerTabs, onCustomerTabsChange, registerCustomerTab } from './customer-tabs.js'
import { useTr } from '../../i18n/use-tr.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/** The customer's follow-ups as a timeline (newest first). */
export function CustomerActions({ meta, customerId }: { meta: Meta; customerId: string }) {
  const tr = useTr()
  const { data } = useCall(crmActions.query, { customerId, pageSize: 100 })
  if (!data?.datas.length) return <Empty description={tr('暂无跟进记录')} />
  return (
    <Timeline
      items={data.datas.map((a: ActionRow) => ({
        key: a.id,
        children: (
          <div>
            <div style={{ color: '#888' }}>
              {a.actionTime} · {meta.enums.label('CRM_ACTION_TYPE', a.actionType)} · {a.followerName ?? ''}
            </div>
            <div style={{ whiteSpace: 'pre-wrap' }}>{a.content}</div>
            {a.nextTime && (
              <div style={{ color: '#d46b08' }}>
                {tr('下次跟进：')}
                {a.nextTime} {a.nextContent ?? ''}
              </div>
            )}
          </div>
        ),
      }))}
    />
  )
}

/** 负责人变更: claims, transfers, releases (with their reasons) and automatic returns. */
export function OwnerHistory({ meta, customerId }: { meta: Meta; customerId: string }) {
  const tr = useTr()
  const { data } = useCall(crmCustomers.ownerRecords, { customerId })
  return (
    <Table
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={data ?? []}
      columns={[
        { key: 't', title: tr('时间'), dataIndex: 'createTime', width: 170 },
        {
          key: 'c',
          title: tr('变更类型'),
          width: 110,
          render: (_v, r) => <Tag color={meta.enums.items('CRM_OWNER_CHANGE_TYPE').find((i) => i.code === r.changeType)?.color}>{meta.enums.label('CRM_OWNER_CHANGE_TYPE', r.changeType)}</Tag>,
        },
        { key: 'f', title: tr('原负责人'), dataIndex: 'fromOwnerName', width: 110 },
        { key: 'to', title: tr('新负责人'), render: (_v, r) => r.toOwnerName ?? (r.poolName ? tr(`公海：${r.poolName}`) : tr('公海')), width: 140 },
        { key: 'r', title: tr('原因'), dataIndex: 'reason' },
        { key: 'b', title: tr('操作人'), dataIndex: 'createBy', width: 100 },
      ]}
    />
  )
}

let ownRegistered = false
/** The customer feature's own tabs; the other CRM features add theirs through registerCustomerTab. */
export function registerOwnTabs(meta: () => Meta | undefined) {
  if (ownRegistered) return
  ownRegistered = true
  // Titles in Simplified: the panel shows them through tr(), in the language of the moment.
  registerCustomerTab({ key: 'actions', title: '跟进记录', order: 10, permissions: [PERMISSION.crm.action.query], render: (id) => { const m = meta(); return m ? <CustomerActions meta={m} customerId={id} /> : null } }) // i18n-ignore
  registerCustomerTab({ key: 'owners', title: '负责人变更', order: 90, render: (id) => { const m = meta(); return m ? <OwnerHistory meta={m} customerId={id} /> : null } }) // i18n-ignore
}

/** The registered tabs the user may see, re-rendered when a feature registers one late. */
export default function CustomerTabsPanel({ customerId }: { customerId: string }) {
  const tr = useTr()
  const can = usePermission()
  const [, setTick] = useState(0)
  useEffect(() => onCustomerTabsChange(() => setTick((n) => n + 1)), [])
  const tabs = customerTabs().filter((t) => !t.permissions?.length || can([...t.permissions]))
  return <Tabs items={tabs.map((t) => ({ key: t.key, label: tr(t.title), children: t.render(customerId) }))} />
}
