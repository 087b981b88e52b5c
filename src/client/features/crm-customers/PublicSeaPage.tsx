import { useState } from 'react'
import { Button, Space } from 'antd'
import { useNavigate } from 'react-router-dom'
import { usePermission } from '../../app/session.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import ListView from '../../runtime/ListView.js'
import { PUBLIC_SEA_VIEW } from '../../views/crm-customers.js'
import { COMPANY_SEA, customerPaths, inCompanySea } from './customer-api.js'
import { call } from '../../api/call.js'
import { crmCustomers, type CustomerRow } from '../../../shared/contracts/crm-customers.js'
import { useTr } from '../../i18n/use-tr.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/** 公海客户 (/crm/public-sea/index, views/crm-customers.ts): the unowned customers of the caller's pools, with 领取. */
export default function PublicSeaPage() {
  return (
    <FeedbackProvider>
      <PublicSea />
    </FeedbackProvider>
  )
}

function PublicSea() {
  const tr = useTr()
  const can = usePermission()
  const navigate = useNavigate()
  const { message } = useFeedback()
  const [version, setVersion] = useState(0)
  const mayClaim = can(PERMISSION.crm.publicSea.claim)
  const claim = async (ids: string[], clear: () => void) => {
    try {
      await call(crmCustomers.claim, { ids })
      message.success(tr(`已领取${ids.length}个客户`))
      clear()
    } catch {
      // The api layer has shown the server's message (e.g. 该客户已被领取).
    }
    setVersion((v) => v + 1)
  }
  return (
    <ListView<CustomerRow>
      source={PUBLIC_SEA_VIEW}
      version={version}
      selectable={mayClaim}
      rowActionsWidth={120}
      render={{ poolId: (r) => (inCompanySea(r) ? tr(COMPANY_SEA) : (r.poolName ?? null)) }}
      renderRowActions={(r, { clearSelection }) => (
        <Space size={4}>
          <a onClick={() => navigate(customerPaths.detail(r.id))}>{tr('详情')}</a>
          {mayClaim && <a onClick={() => claim([r.id], clearSelection)}>{tr('领取')}</a>}
        </Space>
      )}
      renderToolbar={({ selected, clearSelection }) => [
        mayClaim && (
          <Button key="claim" type="primary" disabled={!selected.length} onClick={() => claim(selected, clearSelection)}>
            {tr('领取')}
          </Button>
        ),
      ]}
    />
  )
}
