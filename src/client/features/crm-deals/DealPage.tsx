import { useCallback, useEffect, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { Button, Card, Descriptions, Empty, List, Progress, Result, Space, Spin, Steps, Table, Tabs, Tag, Typography } from 'antd'
import { PrinterOutlined } from '@ant-design/icons'
import Decimal from 'decimal.js'
import { useMeta, type Meta } from '../../api/meta.js'
import { hasPermission, useSession } from '../../app/session.js'
import { useLocale } from '../../i18n/current-locale.js'
import { FeedbackProvider } from '../../components/feedback.js'
import FormView from '../../runtime/FormView.js'
import { renderCell } from '../../runtime/list-columns.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import { call } from '../../api/call.js'
import { crmDeals, type Row } from '../../../shared/contracts/crm-deals.js'
import type { PaymentRow } from '../../../shared/contracts/contract-payment.js'
import ApproveDialog from './ApproveDialog.js'
import PaymentPanel from './PaymentPanel.js'
import ContractFiles from './ContractFiles.js'
import './crm-deals.css'
import { dealPageTitle, SUBJECT, type DealKind, type DealMode } from './deal-routes.js'
import { useTr } from '../../i18n/use-tr.js'

const ENTITY: Record<DealKind, string> = { business: 'crmBusiness', contract: 'crmContract' }

export interface DealPageProps {
  kind: DealKind
  mode: DealMode
  id?: string
  listPath: string
}

/** 商机 / 合同 pages below their list: add, modify, detail, detailV2, print and the H5 (375 px) variants. */
export default function DealPage(props: DealPageProps) {
  const meta = useMeta()
  if (!meta) return <Spin style={{ display: 'block', padding: 48 }} />
  return (
    <FeedbackProvider>
      <DealScreen {...props} meta={meta} entity={meta.entity(ENTITY[props.kind])} />
    </FeedbackProvider>
  )
}

function DealScreen({ kind, mode, id, listPath, meta, entity }: DealPageProps & { meta: Meta; entity: EntityModel }) {
  const tr = useTr()
  const locale = useLocale()
  const navigate = useNavigate()
  const session = useSession()
  const [record, setRecord] = useState<Row | undefined>()
  const [failure, setFailure] = useState<string>()
  const [approving, setApproving] = useState(false)
  const [version, setVersion] = useState(0)
  const editing = mode === 'add' || mode === 'modify' || mode === 'h5add'
  const load = useCallback(() => {
    if (!id || editing) return
    ;call(kind === 'business' ? crmDeals.business : crmDeals.contract, { id }).then(setRecord, (e: unknown) => setFailure(e instanceof Error ? e.message : String(e)))
  }, [id, kind, editing])
  useEffect(load, [load, version])

  if (editing)
    return (
      <div className={mode === 'h5add' ? 'crm-deal crm-deal-h5' : 'crm-deal'}>
        <Card title={tr(dealPageTitle(kind, mode))}>
          <FormView
            meta={meta}
            entity={entity}
            mode={mode === 'modify' ? 'modify' : 'add'}
            id={id}
            onSaved={(saved) => navigate(`${listPath}/${mode === 'h5add' ? 'h5' : 'detail'}/${saved ?? id}`)}
            onCancel={() => navigate(listPath)}
          />
        </Card>
      </div>
    )
  if (failure) return <Result status="warning" title={failure} extra={<Button onClick={() => navigate(listPath)}>{tr('返回列表')}</Button>} />
  if (!record) return <Spin style={{ display: 'block', padding: 48 }} />

  const status = Number(record.status)
  const fields = (entity.file.views?.form?.items ?? []).map((i) => (typeof i === 'string' ? i : i.field))
  const cell = (name: string) => {
    const f = entity.byName.get(name)
    return f ? renderCell(f, record, meta.enums) : String(record[name] ?? '')
  }
  const items = [...fields, 'createBy', 'createTime']
    .filter((n) => entity.byName.has(n) || n === 'createBy' || n === 'createTime')
    .map((n) => ({ key: n, label: entity.byName.get(n)?.label ?? (n === 'createBy' ? tr('创建人') : tr('创建时间')), children: cell(n) }))
  const title = kind === 'contract' ? `${String(record.contractNo)} ${String(record.name)}` : String(record.name)
  const canApprove = status === 0 && hasPermission(session, `crm:${kind}:approve`)
  const canModify = status !== 3 && hasPermission(session, `crm:${kind}:modify`)
  const actions = mode === 'print' ? (
    <Space className="crm-no-print">
      <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
        {tr('打印')}
      </Button>
      <Button onClick={() => navigate(listPath)}>{tr('返回')}</Button>
    </Space>
  ) : (
    <Space wrap>
      {canModify && <Button onClick={() => navigate(`${listPath}/modify/${record.id}`)}>{tr('修改')}</Button>}
      {canApprove && (
        <Button type="primary" onClick={() => setApproving(true)}>
          {tr('审核')}
        </Button>
      )}
      <Button icon={<PrinterOutlined />} onClick={() => navigate(`${listPath}/print/${record.id}`)}>
        {tr('打印')}
      </Button>
      {mode !== 'h5' && <Button onClick={() => navigate(`${listPath}/${mode === 'detail' ? 'detailV2' : 'detail'}/${record.id}`)}>{mode === 'detail' ? tr('概览') : tr('详情')}</Button>}
      <Button onClick={() => navigate(listPath)}>{tr('返回列表')}</Button>
    </Space>
  )

  const related =
    kind === 'contract' ? (
      <Tabs
        items={[
          { key: 'payment', label: tr('回款'), children: <PaymentPanel key={version} contractId={record.id} contractAmount={String(record.amount)} approved={status === 3} readOnly={mode === 'print'} /> },
          { key: 'files', label: tr('附件'), children: <ContractFiles contractId={record.id} readOnly={mode === 'print'} /> },
          { key: 'parents', label: tr('上级合同'), children: <ParentContracts id={record.id} listPath={listPath} /> },
        ]}
      />
    ) : (
      <BusinessContracts businessId={record.id} />
    )

  const approval = (
    <>
      {approving && <ApproveDialog kind={kind} id={record.id} title={SUBJECT[kind]} onDone={() => setVersion((v) => v + 1)} onClose={() => setApproving(false)} />}
    </>
  )

  if (mode === 'print')
    return (
      <div className="crm-deal crm-deal-print">
        {actions}
        <Typography.Title level={3} style={{ textAlign: 'center' }}>
          {tr(SUBJECT[kind])}
          {kind === 'contract' ? tr('（回款计划）') : ''}
        </Typography.Title>
        <Descriptions bordered size="small" column={2} items={items} />
        <div style={{ marginTop: 16 }}>{kind === 'contract' ? <PaymentPanel contractId={record.id} contractAmount={String(record.amount)} readOnly /> : <BusinessContracts businessId={record.id} />}</div>
        <div className="crm-print-sign">
          <span>
            {tr('审核人：')}
            {String(record.approveBy ?? '')}
          </span>
          <span>
            {tr('打印时间：')}
            {new Date().toLocaleString(locale)}
          </span>
        </div>
      </div>
    )

  if (mode === 'h5')
    return (
      <div className="crm-deal crm-deal-h5">
        <Card size="small" title={title} extra={renderCell(entity.byName.get('status')!, record, meta.enums)}>
          <Descriptions size="small" column={1} items={items} />
        </Card>
        {kind === 'contract' && (
          <Card size="small" title={tr('回款')} style={{ marginTop: 8 }}>
            <H5Payments contractId={record.id} />
          </Card>
        )}
        <div style={{ marginTop: 8 }}>{actions}</div>
        {approval}
      </div>
    )

  const summary =
    mode === 'detailV2' ? (
      kind === 'business' ? (
        <Steps
          size="small"
          current={Math.min(Number(record.stage ?? 1), 5) - 1}
          status={Number(record.stage) >= 6 ? 'error' : Number(record.stage) === 5 ? 'finish' : 'process'}
          items={meta.enums
            .items('CRM_BUSINESS_STAGE')
            .filter((i) => Number(i.code) <= 5 || Number(i.code) === Number(record.stage))
            .map((i) => ({ title: meta.enums.text(i) }))}
        />
      ) : (
        <Space size="large" wrap>
          <Progress
            type="circle"
            size={96}
            percent={
              new Decimal(String(record.amount ?? 0)).gt(0)
                ? Number(new Decimal(String(record.receivedAmount ?? 0)).div(String(record.amount)).times(100).toFixed(1))
                : 0
            }
            format={(p) => `${p}%`}
          />
          <Descriptions size="small" column={1} items={[
            { key: 'a', label: tr('合同金额'), children: String(record.amount) },
            { key: 'r', label: tr('已回款'), children: String(record.receivedAmount ?? '0.00') },
            { key: 'u', label: tr('未回款'), children: new Decimal(String(record.amount ?? 0)).minus(String(record.receivedAmount ?? 0)).toFixed(2) },
          ]} />
        </Space>
      )
    ) : null

  return (
    <div className="crm-deal">
      <Card
        title={
          <Space>
            {title}
            {renderCell(entity.byName.get('status')!, record, meta.enums)}
          </Space>
        }
        extra={actions}
      >
        {summary && <div style={{ marginBottom: 16 }}>{summary}</div>}
        <Descriptions bordered size="small" column={{ xs: 1, sm: 2, lg: 3 }} items={items} />
      </Card>
      <Card style={{ marginTop: 12 }}>{related}</Card>
      {approval}
    </div>
  )
}

function H5Payments({ contractId }: { contractId: string }) {
  const tr = useTr()
  const [rows, setRows] = useState<PaymentRow[]>([])
  useEffect(() => {
    call(crmDeals.payment, { contractId, pageSize: 500 }).then((p) => setRows(p.datas), () => undefined)
  }, [contractId])
  if (!rows.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={tr('暂无回款计划')} />
  return (
    <List
      size="small"
      dataSource={rows}
      renderItem={(r) => (
        <List.Item>
          <List.Item.Meta title={tr(`第${r.period}期 ${r.planDate}`)} description={tr(`计划 ${r.planAmount} · 已回 ${r.receivedAmount} · 未回 ${r.unreceivedAmount}`)} />
          {r.overdue ? <Tag color="red">{tr(`逾期${r.overdueDays}天`)}</Tag> : r.status === 2 ? <Tag color="green">{tr('已回款')}</Tag> : null}
        </List.Item>
      )}
    />
  )
}

function ParentContracts({ id, listPath }: { id: string; listPath: string }) {
  const tr = useTr()
  const navigate = useNavigate()
  const [rows, setRows] = useState<Row[]>()
  useEffect(() => {
    call(crmDeals.parents, { id }).then(setRows, () => setRows([]))
  }, [id])
  if (!rows) return <Spin />
  if (!rows.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={tr('没有上级合同')} />
  return (
    <List
      size="small"
      dataSource={rows}
      renderItem={(r, i) => (
        <List.Item>
          <Button type="link" onClick={() => navigate(`${listPath}/detail/${r.id}`)}>
            {i === 0 ? tr('上级') : tr(`上${i + 1}级`)}：{String(r.contractNo)} {String(r.name)}
          </Button>
          <span>{String(r.amount)}</span>
        </List.Item>
      )}
    />
  )
}

/** The contracts signed from an opportunity. */
function BusinessContracts({ businessId }: { businessId: string }) {
  const tr = useTr()
  const [rows, setRows] = useState<Row[]>([])
  useEffect(() => {
    call(crmDeals.contractPage, { businessId, pageSize: 100 }).then((p) => setRows(p.datas), () => undefined)
  }, [businessId])
  return (
    <Table
      size="small"
      rowKey="id"
      pagination={false}
      title={() => tr('关联合同')}
      dataSource={rows}
      locale={{ emptyText: tr('暂无合同') }}
      columns={[
        { title: tr('合同编号'), dataIndex: 'contractNo' },
        { title: tr('合同名称'), dataIndex: 'name' },
        { title: tr('合同金额'), dataIndex: 'amount', align: 'right' as const },
        { title: tr('已回款'), dataIndex: 'receivedAmount', align: 'right' as const },
        { title: tr('签约日期'), dataIndex: 'signDate' },
      ]}
    />
  )
}
