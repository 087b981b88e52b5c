import { useEffect, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { Button, Table, Tag } from 'antd'
import { useMeta } from '../../api/meta.js'
import { hasPermission, useSession } from '../../app/session.js'
import { renderCell } from '../../runtime/list-columns.js'
import { call } from '../../api/call.js'
import { crmDeals, type Row } from '../../../shared/contracts/crm-deals.js'
import PaymentPanel from './PaymentPanel.js'
import { useTr } from '../../i18n/use-tr.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/** The 联系人 / 商机 / 合同 / 回款 tabs of the customer detail page. */
export default function CustomerDealsTab({ customerId, view }: { customerId: string; view: 'contact' | 'business' | 'contract' | 'payment' }) {
  const tr = useTr()
  const meta = useMeta()
  const session = useSession()
  const navigate = useNavigate()
  const [rows, setRows] = useState<Row[]>()
  useEffect(() => {
    if (view === 'payment') return
    const load =
      view === 'contact'
        ? call(crmDeals.contactsOf, { customerId, pageSize: 100 })
        : view === 'business'
          ? call(crmDeals.businessPage, { customerId, pageSize: 100 })
          : call(crmDeals.contractPage, { customerId, pageSize: 100 })
    load.then((p) => setRows(p.datas), () => setRows([]))
  }, [customerId, view])
  if (view === 'payment') return hasPermission(session, PERMISSION.crm.contract.query) ? <PaymentPanel customerId={customerId} readOnly /> : null
  if (!meta) return null
  const entity = meta.entity(view === 'contact' ? 'crmContact' : view === 'business' ? 'crmBusiness' : 'crmContract')
  const names =
    view === 'contact'
      ? ['name', 'mobile', 'telephone', 'position', 'decisionMaker', 'birthday', 'ownerId']
      : view === 'business'
        ? ['name', 'stage', 'amount', 'expectedCloseDate', 'ownerId', 'status']
        : ['contractNo', 'name', 'amount', 'receivedAmount', 'signDate', 'principalId', 'status']
  const detailPath = view === 'business' ? '/crm/business/detail/' : view === 'contract' ? '/crm/contract/detail/' : undefined
  return (
    <Table<Row>
      size="small"
      rowKey="id"
      loading={!rows}
      dataSource={rows ?? []}
      pagination={false}
      scroll={{ x: 700 }}
      columns={[
        ...names.map((n) => {
          const f = entity.byName.get(n)!
          return { key: n, title: f.label, render: (_: unknown, r: Row) => renderCell(f, r, meta.enums) }
        }),
        ...(detailPath
          ? [{ key: 'op', title: tr('操作'), width: 80, render: (_: unknown, r: Row) => <Button type="link" size="small" onClick={() => navigate(detailPath + r.id)}>{tr('详情')}</Button> }]
          : [{ key: 'dm', title: '', width: 1, render: (_: unknown, r: Row) => (r.decisionMaker ? <Tag color="gold">{tr('决策人')}</Tag> : null) }]),
      ]}
    />
  )
}
