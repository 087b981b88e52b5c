import { useState } from 'react'
import { Button, Card, Descriptions, Result, Space, Spin, Tag } from 'antd'
import { useNavigate } from 'react-router-dom'
import { useSWRConfig } from 'swr'
import { useMeta, type Meta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import { fieldText } from '../../runtime/field-text.js'
import { COMPANY_SEA, customerPaths, inCompanySea } from './customer-api.js'
import { call } from '../../api/call.js'
import { callKeyMentions, useCall } from '../../app/use-call.js'
import { crmCustomers, type CustomerRow } from '../../../shared/contracts/crm-customers.js'
import CustomerTabsPanel, { CustomerActions } from './CustomerTabsPanel.js'
import ActionFormModal from './ActionFormModal.js'
import { ReasonDialog } from './CustomerListPage.js'
import { useTr } from '../../i18n/use-tr.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const BASIC = ['code', 'name', 'level', 'dealStatus', 'industry', 'source', 'contact', 'telephone', 'email', 'settleType', 'address', 'description']
const OWNER = ['ownerId', 'deptId', 'receiveTime', 'lastFollowTime', 'nextFollowTime', 'locked', 'preOwnerId', 'poolId', 'poolTime', 'createBy', 'createTime']

export type DetailVariant = 'detail' | 'detailV2' | 'print' | 'h5'

/**
 * 客户详情 and its variants (spec 000 §2): `detail` (information, then the tabs of every CRM feature),
 * `detailV2` (information beside the follow-up timeline), `print` (a plain sheet and the browser's
 * print), `h5` (one column for a 375 px phone, with 写跟进).
 */
export default function CustomerDetailPage({ id, variant }: { id: string; variant: DetailVariant }) {
  const meta = useMeta()
  return <FeedbackProvider>{meta ? <CustomerDetail meta={meta} id={id} variant={variant} /> : <Spin />}</FeedbackProvider>
}

function Fields({ meta, row, names, column }: { meta: Meta; row: CustomerRow; names: string[]; column: number }) {
  const tr = useTr()
  const entity = meta.entity('customer')
  return (
    <Descriptions bordered size="small" column={column}>
      {names.map((name) => {
        const field = entity.byName.get(name)
        if (!field) return null
        const value =
          name === 'locked'
            ? row.locked ? <Tag color="gold">{tr('已锁定')}</Tag> : tr('否')
            : name === 'ownerId' && !row.ownerId
              ? <Tag>{tr('公海客户')}</Tag>
              : name === 'poolId' && inCompanySea(row)
                ? tr(COMPANY_SEA)
                : fieldText(field, row, meta.enums)
        return (
          <Descriptions.Item key={name} label={field.label}>
            {value}
          </Descriptions.Item>
        )
      })}
    </Descriptions>
  )
}

function CustomerDetail({ meta, id, variant }: { meta: Meta; id: string; variant: DetailVariant }) {
  const tr = useTr()
  const can = usePermission()
  const navigate = useNavigate()
  const { message } = useFeedback()
  const { data: row, error, mutate } = useCall(crmCustomers.get, { id }, { swr: { revalidateOnFocus: false } })
  const [following, setFollowing] = useState(false)
  const [releasing, setReleasing] = useState(false)
  const [version, setVersion] = useState(0)
  const { mutate: mutateAll } = useSWRConfig()
  if (error) return <Result status="404" title={tr('客户不存在')} subTitle={error instanceof Error ? error.message : undefined} />
  if (!row) return <Spin style={{ display: 'block', padding: 48 }} />
  const owned = Boolean(row.ownerId)
  // The tabs of every feature read through swr: refresh whatever concerns this customer.
  const refresh = () => {
    setVersion((v) => v + 1)
    void mutate()
    void mutateAll((key) => (Array.isArray(key) && key.includes(id)) || callKeyMentions(key, id))
  }
  const followButton = can(PERMISSION.crm.action.add) && owned && (
    <Button type="primary" onClick={() => setFollowing(true)} block={variant === 'h5'}>
      {tr('写跟进')}
    </Button>
  )
  const dialogs = (
    <>
      <ActionFormModal meta={meta} open={following} customerId={id} onClose={() => setFollowing(false)} onSaved={() => (setFollowing(false), refresh())} />
      <ReasonDialog
        open={releasing}
        count={1}
        onClose={() => setReleasing(false)}
        onOk={async (reason) => {
          try {
            await call(crmCustomers.release, { ids: [id], reason })
            message.success(tr('已放入公海'))
            setReleasing(false)
            refresh()
          } catch {
            // shown by the api layer
          }
        }}
      />
    </>
  )

  if (variant === 'print')
    return (
      <div style={{ padding: 24, background: '#fff' }}>
        <style>{'@media print { .no-print { display: none !important } }'}</style>
        <h2 style={{ textAlign: 'center' }}>{tr('客户信息')}</h2>
        <Fields meta={meta} row={row} names={[...BASIC, ...OWNER]} column={2} />
        <Space className="no-print" style={{ marginTop: 16 }}>
          <Button type="primary" onClick={() => window.print()}>
            {tr('打印')}
          </Button>
          <Button onClick={() => navigate(-1)}>{tr('返回')}</Button>
        </Space>
      </div>
    )

  if (variant === 'h5')
    return (
      <div style={{ maxWidth: 375, margin: '0 auto', padding: 8 }}>
        <Card size="small" title={row.name} extra={can(PERMISSION.crm.customer.modify) && owned && <a onClick={() => navigate(customerPaths.h5Modify(id))}>{tr('修改')}</a>}>
          <Fields meta={meta} row={row} names={['code', 'level', 'contact', 'telephone', 'ownerId', ...(owned ? [] : ['poolId']), 'lastFollowTime', 'nextFollowTime', 'address']} column={1} />
        </Card>
        <div style={{ margin: '8px 0' }}>{followButton}</div>
        <Card size="small" title={tr('跟进记录')}>
          <CustomerActions meta={meta} customerId={id} />
        </Card>
        {dialogs}
      </div>
    )

  const toolbar = (
    <Space wrap>
      {can(PERMISSION.crm.customer.modify) && owned && <Button onClick={() => navigate(customerPaths.modify(id))}>{tr('修改')}</Button>}
      {followButton}
      {can(PERMISSION.crm.customer.release) && owned && <Button onClick={() => setReleasing(true)}>{tr('放入公海')}</Button>}
      {can(PERMISSION.crm.publicSea.claim) && !owned && (
        <Button
          type="primary"
          onClick={async () => {
            try {
              await call(crmCustomers.claim, { ids: [id] })
              message.success(tr('领取成功'))
              refresh()
            } catch {
              // shown by the api layer
            }
          }}
        >
          {tr('领取')}
        </Button>
      )}
      <Button onClick={() => navigate(customerPaths.print(id))}>{tr('打印')}</Button>
    </Space>
  )

  if (variant === 'detailV2')
    return (
      <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap', padding: 16 }}>
        <Card title={row.name} extra={toolbar} style={{ flex: '2 1 560px' }}>
          <Fields meta={meta} row={row} names={[...BASIC, ...OWNER]} column={2} />
          <div style={{ marginTop: 16 }}>
            <CustomerTabsPanel customerId={id} />
          </div>
        </Card>
        <Card title={tr('跟进动态')} style={{ flex: '1 1 320px' }}>
          <CustomerActions meta={meta} customerId={id} />
        </Card>
        {dialogs}
      </div>
    )

  return (
    <Card title={row.name} extra={toolbar}>
      <Fields meta={meta} row={row} names={BASIC} column={3} />
      <div style={{ height: 12 }} />
      <Fields meta={meta} row={row} names={OWNER} column={3} />
      <div style={{ marginTop: 16 }}>
        <CustomerTabsPanel key={version} customerId={id} />
      </div>
      {dialogs}
    </Card>
  )
}
