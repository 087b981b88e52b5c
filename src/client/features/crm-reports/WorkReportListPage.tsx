import { useMemo, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { Badge, Button, Space, Tabs } from 'antd'
import { ConfirmLink } from '../../components/ConfirmLink.js'
import { PlusOutlined } from '@ant-design/icons'
import { call } from '../../api/call.js'
import { useCall } from '../../app/use-call.js'
import { crmReports } from '../../../shared/contracts/crm-reports.js'
import { usePermission } from '../../app/session.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import ListView, { type ListRow } from '../../runtime/ListView.js'
import { workReportView } from '../../views/crm-reports.js'
import StatisPanel from './StatisPanel.js'
import { refreshReports } from './done-message.js'
import { REPORT_KIND, WEEKLY, type ReportType, type WorkReport } from './report-api.js'
import { useTr } from '../../i18n/use-tr.js'
import { FRESH_OPENING } from '../../app/tab-store.js'

type Box = 'all' | 'sent' | 'received'
type ReportRow = WorkReport & ListRow

/**
 * 周报 / 月报 (menus /crm/work-report/weekly and /monthly, views/crm-reports.ts): the team's statistics
 * for a period with a chart, then the reports the user may see in three boxes (全部, 我发出的, 我收到的,
 * unread marked), with 新增 and 查看 pages below the menu and 删除 for the author.
 */
export default function WorkReportListPage({ type, listPath }: { type: ReportType; listPath: string }) {
  return (
    <FeedbackProvider>
      <ReportList type={type} listPath={listPath} />
    </FeedbackProvider>
  )
}

function ReportList({ type, listPath }: { type: ReportType; listPath: string }) {
  const tr = useTr()
  const kind = REPORT_KIND[type]
  const { message } = useFeedback()
  const can = usePermission()
  const navigate = useNavigate()
  const view = useMemo(() => workReportView(type, kind, type === WEEKLY ? 'week' : 'month'), [type, kind])
  const [box, setBox] = useState<Box>('all')
  const [version, setVersion] = useState(0)
  // Reloaded with the feature's other reads by refreshReports (after a delete, or a write elsewhere).
  const { data: unread } = useCall(crmReports.workReports, { reportType: type, box: 'received', unread: 1, pageSize: 1 })
  const remove = async (row: ReportRow) => {
    try {
      await call(crmReports.deleteWorkReport, { id: row.id })
      message.success(tr('删除成功！'))
      setVersion((v) => v + 1)
      refreshReports()
    } catch {
      // The api layer has shown the server's message.
    }
  }
  return (
    <ListView<ReportRow>
      className="crm-work-reports"
      source={view}
      params={{ box }}
      version={version}
      refreshOnFocus
      before={<StatisPanel type={type} />}
      render={{
        period: (r) => (
          <Space>
            {r.read === false && <Badge status="processing" title={tr('未读')} />}
            <span>{`${r.startDate} ~ ${r.endDate}`}</span>
          </Space>
        ),
        readCount: (r) => `${r.readCount}/${r.recipients.length}`,
      }}
      header={
        <Tabs
          activeKey={box}
          onChange={(k) => setBox(k as Box)}
          tabBarExtraContent={
            can([`${kind.prefix}:add`]) && (
              <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => navigate(`${listPath}/add`, { state: FRESH_OPENING })}>
                {tr(`写${kind.name}`)}
              </Button>
            )
          }
          items={[
            { key: 'all', label: tr(`全部${kind.name}`) },
            { key: 'sent', label: tr('我发出的') },
            { key: 'received', label: <Badge count={unread?.totalCount ?? 0} size="small" offset={[8, -2]}>{tr('我收到的')}</Badge> },
          ]}
        />
      }
      rowActionsWidth={130}
      renderRowActions={(row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => navigate(`${listPath}/detail/${row.id}`)}>
            {tr('查看')}
          </Button>
          {row.mine && can([`${kind.prefix}:delete`]) && (
            <ConfirmLink title={tr(`确定删除该${kind.name}？`)} onConfirm={() => remove(row)}>
              {tr('删除')}
            </ConfirmLink>
          )}
        </Space>
      )}
    />
  )
}
