import { lazy, useEffect, useState } from 'react'
import { Card, Empty, List, Tag, Typography } from 'antd'
import { GiftOutlined } from '@ant-design/icons'
import { useMeta } from '../../api/meta.js'
import { call } from '../../api/call.js'
import { crmMemorials, type MemorialRow } from '../../../shared/contracts/crm-deals.js'
import { useTr } from '../../i18n/use-tr.js'

const EntityPage = lazy(() => import('../../runtime/EntityPage.js'))

/** 纪念日提醒: my coming reminders on top, then every memorial of mine or shared with me. */
export default function MemorialPage() {
  const tr = useTr()
  const meta = useMeta()
  const [rows, setRows] = useState<MemorialRow[]>()
  useEffect(() => {
    call(crmMemorials.reminders).then(setRows, () => setRows([]))
  }, [])
  return (
    <div className="crm-memorial">
      <Card size="small" title={tr('我的提醒')} style={{ marginBottom: 12 }}>
        {rows && !rows.length ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={tr('近期没有纪念日')} />
        ) : (
          <List
            size="small"
            loading={!rows}
            dataSource={rows ?? []}
            renderItem={(r) => (
              <List.Item>
                <List.Item.Meta
                  avatar={<GiftOutlined style={{ color: '#eb2f96', fontSize: 18 }} />}
                  title={r.title}
                  description={[meta?.enums.label('CRM_MEMORIAL_TYPE', r.memorialType) ?? '', String(r.customerName ?? ''), String(r.contactName ?? '')].filter(Boolean).join(' · ')}
                />
                <Typography.Text>{r.nextDate}</Typography.Text>
                <Tag color={r.daysLeft === 0 ? 'red' : 'orange'} style={{ marginLeft: 8 }}>
                  {r.daysLeft === 0 ? tr('今天') : tr(`还有${r.daysLeft}天`)}
                </Tag>
              </List.Item>
            )}
          />
        )}
      </Card>
      <EntityPage entityName="crmMemorial" />
    </div>
  )
}
