import { useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { Button, Space, Tabs, Tag } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import { useCall } from '../../app/use-call.js'
import { crmReports } from '../../../shared/contracts/crm-reports.js'
import { useMeta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import { FeedbackProvider } from '../../components/feedback.js'
import ListView, { type ListRow } from '../../runtime/ListView.js'
import { APPROVE_CLAIMS_VIEW, MY_CLAIMS_VIEW } from '../../views/crm-reports.js'
import { CREATED, REIMBURSE_STATUS_ENUM, STATUS_COLOR, type Claim } from './report-api.js'
import { useTr } from '../../i18n/use-tr.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'
import { FRESH_OPENING } from '../../app/tab-store.js'

type Box = 'mine' | 'approve'
type ClaimRow = Claim & ListRow

/**
 * 费用报销 (menu /crm/reimburse, views/crm-reports.ts): 我的报销 (my claims, 新增 / 修改 while pending or
 * refused) and 报销审批 (claims whose approver I am: waiting for me by default, or those I passed or
 * refused), each row opening the detail page where the approver passes or refuses.
 */
export default function ReimburseListPage({ listPath }: { listPath: string }) {
  return (
    <FeedbackProvider>
      <ClaimList listPath={listPath} />
    </FeedbackProvider>
  )
}

function ClaimList({ listPath }: { listPath: string }) {
  const tr = useTr()
  const meta = useMeta()
  const can = usePermission()
  const navigate = useNavigate()
  const mayApprove = can([PERMISSION.crm.reimburse.approve])
  const [box, setBox] = useState<Box>(can([PERMISSION.crm.reimburse.query]) ? 'mine' : 'approve')
  const { data: waiting, mutate: refreshWaiting } = useCall(mayApprove && crmReports.approveClaims, { pageSize: 1 })
  const tabs = [
    ...(can([PERMISSION.crm.reimburse.query]) ? [{ key: 'mine', label: tr('我的报销') }] : []),
    ...(mayApprove ? [{ key: 'approve', label: tr('报销审批') + (waiting?.totalCount ? `（${waiting.totalCount}）` : '') }] : []),
  ]
  return (
    <ListView<ClaimRow>
      className="crm-reimburse"
      source={box === 'mine' ? MY_CLAIMS_VIEW : APPROVE_CLAIMS_VIEW}
      params={box === 'approve' ? { status: CREATED } : undefined}
      refreshOnFocus
      render={{ status: (r) => <Tag color={STATUS_COLOR[r.status]}>{meta?.enums.label(REIMBURSE_STATUS_ENUM, r.status) ?? ''}</Tag> }}
      header={
        <Tabs
          activeKey={box}
          onChange={(k) => (setBox(k as Box), void refreshWaiting())}
          items={tabs}
          tabBarExtraContent={
            can([PERMISSION.crm.reimburse.add]) && (
              <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => navigate(`${listPath}/add`, { state: FRESH_OPENING })}>
                {tr('新增报销单')}
              </Button>
            )
          }
        />
      }
      renderRowActions={(row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => navigate(`${listPath}/detail/${row.id}`)}>
            {row.canApprove ? tr('审批') : tr('查看')}
          </Button>
          {row.canModify && can([PERMISSION.crm.reimburse.modify]) && (
            <Button type="link" size="small" onClick={() => navigate(`${listPath}/modify/${row.id}`)}>
              {tr('修改')}
            </Button>
          )}
        </Space>
      )}
    />
  )
}
