import { useState } from 'react'
import { useLocation, useNavigate, useParams } from 'react-router-dom'
import { Button, Card, Descriptions, Empty, Input, Space, Spin, Table, Tag } from 'antd'
import GuardedModal from '../../runtime/GuardedModal.js'
import { call } from '../../api/call.js'
import { useCall } from '../../app/use-call.js'
import { crmReports } from '../../../shared/contracts/crm-reports.js'
import { useMeta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import { closeTab } from '../../app/tab-store.js'
import { refreshReports, useDoneMessage } from './done-message.js'
import ReceiptUpload from './ReceiptUpload.js'
import { APPROVE_PASS, APPROVE_REFUSE, REIMBURSE_CATEGORY_ENUM, REIMBURSE_STATUS_ENUM, STATUS_COLOR, type ClaimLine } from './report-api.js'
import { useTr } from '../../i18n/use-tr.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/** 报销单详情 and its approval view: the approver passes or refuses (with a reason) while the claim is pending. */
export default function ReimburseDetailPage({ listPath }: { listPath: string }) {
  return (
    <FeedbackProvider>
      <ClaimDetail listPath={listPath} />
    </FeedbackProvider>
  )
}

function ClaimDetail({ listPath }: { listPath: string }) {
  const tr = useTr()
  const { id = '' } = useParams<{ id: string }>()
  const meta = useMeta()
  const can = usePermission()
  const { message } = useFeedback()
  const navigate = useNavigate()
  const done = useDoneMessage()
  const location = useLocation()
  const { data, error, mutate } = useCall(crmReports.claimDetail, { id }, { swr: { revalidateOnFocus: false } })
  const [refusing, setRefusing] = useState(false)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  if (error) return <Empty description={tr('报销单不存在或无权查看')} />
  if (!data) return <Spin />
  const decide = async (status: number) => {
    if (status === APPROVE_REFUSE && !reason.trim()) return void message.error(tr('拒绝理由不能为空'))
    setBusy(true)
    try {
      await call(crmReports.approveClaim, { id, status, refuseReason: status === APPROVE_REFUSE ? reason.trim() : undefined })
      done(status === APPROVE_PASS ? tr('审批通过！') : tr('已拒绝！'))
      setRefusing(false)
      await mutate()
      refreshReports()
      navigate(listPath)
      closeTab(location.pathname)
    } catch {
      // Shown by the api layer.
    } finally {
      setBusy(false)
    }
  }
  const approvable = data.canApprove && can([PERMISSION.crm.reimburse.approve])
  return (
    <Card
      size="small"
      variant="borderless"
      title={tr(`报销单 ${data.code}`)}
      extra={
        <Space>
          {approvable && (
            <>
              <Button type="primary" loading={busy} onClick={() => void decide(APPROVE_PASS)}>
                {tr('审批通过')}
              </Button>
              <Button danger onClick={() => setRefusing(true)}>
                {tr('审批拒绝')}
              </Button>
            </>
          )}
          {data.canModify && can([PERMISSION.crm.reimburse.modify]) && <Button onClick={() => navigate(`${listPath}/modify/${id}`)}>{tr('修改')}</Button>}
          <Button onClick={() => navigate(listPath)}>{tr('返回')}</Button>
        </Space>
      }
    >
      <Descriptions bordered size="small" column={3} style={{ marginBottom: 12 }}>
        <Descriptions.Item label={tr('报销事由')} span={3}>
          {data.title}
        </Descriptions.Item>
        <Descriptions.Item label={tr('申请人')}>{data.applicantName}</Descriptions.Item>
        <Descriptions.Item label={tr('所属部门')}>{data.deptName || '—'}</Descriptions.Item>
        <Descriptions.Item label={tr('申请时间')}>{data.createTime}</Descriptions.Item>
        <Descriptions.Item label={tr('报销总金额')}>
          <strong>{`¥ ${data.totalAmount}`}</strong>
        </Descriptions.Item>
        <Descriptions.Item label={tr('审批人')}>{data.managerName}</Descriptions.Item>
        <Descriptions.Item label={tr('审核状态')}>
          <Tag color={STATUS_COLOR[data.status]}>{meta?.enums.label(REIMBURSE_STATUS_ENUM, data.status) ?? ''}</Tag>
        </Descriptions.Item>
        {data.approveTime && <Descriptions.Item label={tr('审核时间')}>{data.approveTime}</Descriptions.Item>}
        {data.refuseReason && (
          <Descriptions.Item label={tr('拒绝理由')} span={2}>
            {data.refuseReason}
          </Descriptions.Item>
        )}
        <Descriptions.Item label={tr('备注')} span={3}>
          {data.description || '—'}
        </Descriptions.Item>
      </Descriptions>
      <Table<ClaimLine>
        rowKey={(l) => String(l.id)}
        size="small"
        bordered
        pagination={false}
        dataSource={data.details ?? []}
        columns={[
          { key: '__seq', title: tr('序号'), width: 60, align: 'center', render: (_v, _r, i) => i + 1 },
          { key: 'category', title: tr('费用类别'), width: 140, render: (_v, l) => meta?.enums.label(REIMBURSE_CATEGORY_ENUM, l.category) ?? '' },
          { key: 'amount', dataIndex: 'amount', title: tr('金额(元)'), width: 140, align: 'right' },
          { key: 'occurDate', dataIndex: 'occurDate', title: tr('发生日期'), width: 130 },
          { key: 'description', dataIndex: 'description', title: tr('说明') },
        ]}
        summary={() => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0} colSpan={2}>
              {tr('合计')}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="right">
              {data.totalAmount}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={3} colSpan={2} />
          </Table.Summary.Row>
        )}
      />
      <Descriptions size="small" style={{ marginTop: 12 }}>
        <Descriptions.Item label={tr('票据附件')}>
          <ReceiptUpload value={data.attachments} readOnly />
        </Descriptions.Item>
      </Descriptions>
      <GuardedModal open={refusing} title={tr('审批拒绝')} okText={tr('确定拒绝')} cancelText={tr('取消')} okButtonProps={{ danger: true, loading: busy }} onOk={() => void decide(APPROVE_REFUSE)} onCancel={() => setRefusing(false)}>
        <Input.TextArea aria-label={tr('拒绝理由')} rows={3} maxLength={200} showCount placeholder={tr('请填写拒绝理由（必填）')} value={reason} onChange={(e) => setReason(e.target.value)} />
      </GuardedModal>
    </Card>
  )
}
