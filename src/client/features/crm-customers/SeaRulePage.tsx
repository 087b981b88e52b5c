import { lazy, Suspense } from 'react'
import { Alert, Button, Card, Spin, Tabs } from 'antd'
import { usePermission } from '../../app/session.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import { call } from '../../api/call.js'
import { crmCustomers } from '../../../shared/contracts/crm-customers.js'
import { useTr } from '../../i18n/use-tr.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const SingletonPage = lazy(() => import('../../runtime/singleton/SingletonPage.js'))
const EntityPage = lazy(() => import('../../runtime/EntityPage.js'))

/**
 * 公海规则设置 (/crm/public-sea/rule/index): the tenant's rules (capacity, lock limit, daily claims,
 * cool-down of the previous owner, protection after release, reminder days), the pools and the
 * departments they serve, and the automatic return rules per pool, level and condition.
 */
export default function SeaRulePage() {
  return (
    <FeedbackProvider>
      <SeaRules />
    </FeedbackProvider>
  )
}

function SeaRules() {
  const tr = useTr()
  const can = usePermission()
  const { message } = useFeedback()
  const run = async () => {
    try {
      const r = await call(crmCustomers.runReturn, {})
      message.success(tr(`自动回收完成，共收回${r.total}个客户`))
    } catch {
      // shown by the api layer
    }
  }
  const lazyPane = (node: JSX.Element) => <Suspense fallback={<Spin />}>{node}</Suspense>
  return (
    <Card>
      <Alert
        showIcon
        type="info"
        style={{ marginBottom: 12 }}
        message={tr('每天自动执行回收；客户按负责人所属部门进入对应公海，没有适用公海的客户进入全公司公海。数量为0表示不限制。')}
        action={can(PERMISSION.crm.seaRule.run) && <Button onClick={run}>{tr('立即执行回收')}</Button>}
      />
      <Tabs
        items={[
          { key: 'config', label: tr('基本规则'), children: lazyPane(<SingletonPage entityName="crmSeaConfig" />) },
          { key: 'pools', label: tr('公海池'), children: lazyPane(<EntityPage entityName="crmCustomerPool" />) },
          { key: 'rules', label: tr('自动回收规则'), children: lazyPane(<EntityPage entityName="crmSeaRule" />) },
        ]}
      />
    </Card>
  )
}
