import { useState } from 'react'
import { Button, Card, Descriptions, InputNumber, Result, Space, Spin, Table, Tag, Typography } from 'antd'
import type { ColumnType } from 'antd/es/table'
import { useLocation, useNavigate } from 'react-router-dom'
import { call } from '../../api/call.js'
import { useCall } from '../../app/use-call.js'
import { transfer, type TransferReceipt } from '../../../shared/contracts/stock.js'
import { useMeta } from '../../api/meta.js'
import { closeTab } from '../../app/tab-store.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import { enumColor } from '../field-text.js'
import { SEQ_WIDTH } from '../list-columns.js'
import { documentsChanged } from './document-events.js'
import { PRODUCT_COLUMNS } from './line-columns.js'
import { receiptProducts, remainingOf, type TransferLine } from './transfer-receive.js'
import { useTr } from '../../i18n/use-tr.js'

type Line = TransferLine & Record<string, unknown>

export interface TransferReceivePageProps {
  id: string
  listPath: string
}

/**
 * 仓库调拨单收货 (`…/receive/:id`): the transfer's lines with transfer, received and remaining
 * quantities and an input for this receipt; 确认收货 receives them into the target warehouse
 * (several receipts until everything is in); the receipts so far below.
 */
export default function TransferReceivePage(props: TransferReceivePageProps) {
  return (
    <FeedbackProvider>
      <TransferReceive {...props} />
    </FeedbackProvider>
  )
}

function TransferReceive({ id, listPath }: TransferReceivePageProps) {
  const tr = useTr()
  const meta = useMeta()
  const { message } = useFeedback()
  const navigate = useNavigate()
  const location = useLocation()
  const [typed, setTyped] = useState<Record<string, unknown>>({})
  const [busy, setBusy] = useState(false)
  const order = useCall(transfer.get, { id }, { swr: { revalidateOnFocus: false } })
  const receipts = useCall(transfer.receiveDetail, { id }, { swr: { revalidateOnFocus: false } })
  if (order.error) return <Result status="warning" title={order.error instanceof Error ? order.error.message : String(order.error)} />
  if (!order.data || !meta) return <Spin style={{ display: 'block', padding: 48 }} />
  const record = order.data
  const lines = (record.details ?? []) as Line[]
  const statusField = meta.entityOrUndefined('scTransferOrder')?.byName.get('status')
  const open = [3, 9].includes(Number(record.status))

  const confirm = async () => {
    if (busy) return
    const answer = receiptProducts(lines, typed)
    if ('error' in answer) {
      message.error(answer.error)
      return
    }
    setBusy(true)
    try {
      await call(transfer.receive, { id, products: answer.products })
      message.success(tr('收货成功！'))
      documentsChanged('scTransferOrder')
      setTyped({})
      const fresh = await order.mutate()
      await receipts.mutate()
      if (fresh && Number(fresh.status) === 12) {
        navigate(listPath)
        closeTab(location.pathname)
      }
    } catch {
      // The api layer has shown the server's message.
    } finally {
      setBusy(false)
    }
  }

  const columns: ColumnType<Line>[] = [
    { key: '__seq', title: tr('序号'), width: SEQ_WIDTH, align: 'center', render: (_v, _r, i) => i + 1 },
    ...PRODUCT_COLUMNS.map((c): ColumnType<Line> => ({ key: c.key, dataIndex: c.key, title: tr(c.title), width: c.width })),
    { key: 'transferNum', dataIndex: 'transferNum', title: tr('调拨数量'), width: 100, align: 'right' },
    { key: 'receiveNum', title: tr('已收货数量'), width: 100, align: 'right', render: (_v, l) => Number(l.receiveNum ?? 0) },
    { key: 'remaining', title: tr('待收货数量'), width: 100, align: 'right', render: (_v, l) => <span data-remaining>{remainingOf(l)}</span> },
    {
      key: 'thisTime',
      title: tr('本次收货数量'),
      width: 140,
      render: (_v, l, i) =>
        open && remainingOf(l) > 0 ? (
          <InputNumber
            aria-label={tr(`第${i + 1}行本次收货数量`)}
            min={0}
            max={remainingOf(l)}
            precision={0}
            style={{ width: '100%' }}
            value={typed[l.productId] as number | undefined}
            onChange={(v) => setTyped((t) => ({ ...t, [l.productId]: v ?? undefined }))}
          />
        ) : null,
    },
  ]

  return (
    <div className="transfer-receive">
      <Card size="small" variant="borderless" style={{ marginBottom: 12 }}>
        <Space style={{ marginBottom: 12 }} wrap>
          <Typography.Text strong>{tr('单据号：')}{String(record.code ?? '')}</Typography.Text>
          {statusField?.enum && <Tag color={enumColor(statusField, record.status, meta.enums)}>{meta.enums.label(statusField.enum, record.status)}</Tag>}
        </Space>
        <Descriptions size="small" column={3}>
          <Descriptions.Item label={tr('转出仓库')}>{String(record.sourceScName ?? '')}</Descriptions.Item>
          <Descriptions.Item label={tr('转入仓库')}>{String(record.targetScName ?? '')}</Descriptions.Item>
          <Descriptions.Item label={tr('备注')}>{String(record.description ?? '')}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card size="small" variant="borderless" style={{ marginBottom: 12 }} title={tr('收货商品')}>
        <Table<Line> rowKey="productId" size="small" bordered columns={columns} dataSource={lines} pagination={false} scroll={{ x: 'max-content' }} />
      </Card>
      <Card size="small" variant="borderless" style={{ marginBottom: 12 }} title={tr('收货记录')}>
        <Table<TransferReceipt>
          aria-label={tr('收货记录')}
          rowKey="id"
          size="small"
          bordered
          pagination={false}
          loading={receipts.isLoading}
          dataSource={receipts.data ?? []}
          locale={{ emptyText: tr('暂无收货记录') }}
          columns={[
            { key: 'productCode', dataIndex: 'productCode', title: tr('商品编号'), width: 120 },
            { key: 'productName', dataIndex: 'productName', title: tr('商品名称'), width: 160 },
            { key: 'receiveNum', dataIndex: 'receiveNum', title: tr('收货数量'), width: 100, align: 'right' },
            { key: 'createBy', dataIndex: 'createBy', title: tr('收货人'), width: 120 },
            { key: 'createTime', dataIndex: 'createTime', title: tr('收货时间'), width: 170 },
          ]}
        />
      </Card>
      <Space>
        {open && (
          <Button type="primary" loading={busy} onClick={() => void confirm()}>
            {tr('确认收货')}
          </Button>
        )}
        <Button onClick={() => navigate(listPath)}>{tr('返回')}</Button>
      </Space>
    </div>
  )
}
