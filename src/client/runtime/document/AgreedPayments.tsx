import { Button, Input, InputNumber, Select, Space, Table, Typography } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import { useCall } from '../../app/use-call.js'
import { pickerCall } from '../../../shared/contracts/picker-calls.js'
import { paymentsMatch, paymentsRemaining, paymentsSum } from '../../../shared/metadata/document-totals.js'
import { newLineKey } from './DocumentLines.js'
import { useTr } from '../../i18n/use-tr.js'

/** One agreed payment as the order sends it (`id` is the pay type, as the server reads it). */
export interface PaymentRow {
  __key: string
  id?: string
  payTypeName?: string
  payAmount?: string
  text?: string
}

export interface AgreedPaymentsProps {
  rows: PaymentRow[]
  onChange: (rows: PaymentRow[]) => void
  /** The document's total (two decimals) the amounts must add up to. */
  total: string
  readOnly: boolean
}

/** The pay types an agreed payment chooses from (the paytype picker's rows: id, code, name). */
const PAY_TYPES = pickerCall('paytype')

/** 约定支付 of purchase and sale orders: pay type, amount and text per row, their sum shown against the total; a new row starts with what is left. */
export default function AgreedPayments({ rows, onChange, total, readOnly }: AgreedPaymentsProps) {
  const tr = useTr()
  const { data: payTypes } = useCall(!readOnly && PAY_TYPES, { pageIndex: 1, pageSize: 100 })
  const update = (key: string, patch: Partial<PaymentRow>) => onChange(rows.map((r) => (r.__key === key ? { ...r, ...patch } : r)))
  const sum = paymentsSum(rows)
  const match = paymentsMatch(rows, total)
  return (
    <div className="agreed-payments">
      <Space style={{ marginBottom: 8 }}>
        <Typography.Text strong>{tr('约定支付')}</Typography.Text>
        {!readOnly && (
          <Button size="small" icon={<PlusOutlined aria-hidden />} onClick={() => onChange([...rows, { __key: newLineKey(), payAmount: paymentsRemaining(rows, total) }])}>
            {tr('添加支付方式')}
          </Button>
        )}
        <Typography.Text type={match ? 'success' : 'danger'} aria-label={tr('约定支付合计')}>
          {tr(`支付金额合计：${sum} / 总金额：${total}`)}
        </Typography.Text>
      </Space>
      <Table<PaymentRow>
        rowKey="__key"
        size="small"
        bordered
        pagination={false}
        dataSource={rows}
        locale={{ emptyText: tr('暂无约定支付') }}
        columns={[
          {
            key: 'id',
            title: tr('支付方式'),
            width: 200,
            render: (_v, row, i) =>
              readOnly ? (
                row.payTypeName
              ) : (
                <Select
                  aria-label={tr(`第${i + 1}个支付方式`)}
                  style={{ width: '100%' }}
                  value={row.id}
                  placeholder={tr('请选择支付方式')}
                  options={(payTypes?.datas ?? []).map((p) => ({ value: p.id, label: p.name }))}
                  onChange={(id: string) => update(row.__key, { id })}
                />
              ),
          },
          {
            key: 'payAmount',
            title: tr('支付金额'),
            width: 160,
            render: (_v, row, i) =>
              readOnly ? (
                row.payAmount
              ) : (
                <InputNumber<string>
                  aria-label={tr(`第${i + 1}个支付金额`)}
                  stringMode
                  precision={2}
                  min="0"
                  style={{ width: '100%' }}
                  value={row.payAmount}
                  onChange={(v) => update(row.__key, { payAmount: v ?? undefined })}
                />
              ),
          },
          {
            key: 'text',
            title: tr('备注'),
            render: (_v, row, i) =>
              readOnly ? row.text : <Input aria-label={tr(`第${i + 1}个支付备注`)} value={row.text ?? ''} maxLength={200} onChange={(e) => update(row.__key, { text: e.target.value })} />,
          },
          ...(readOnly
            ? []
            : [
                {
                  key: '__actions',
                  title: tr('操作'),
                  width: 80,
                  render: (_v: unknown, row: PaymentRow) => (
                    <Button type="link" size="small" danger onClick={() => onChange(rows.filter((r) => r.__key !== row.__key))}>
                      {tr('删除')}
                    </Button>
                  ),
                },
              ]),
        ]}
      />
    </div>
  )
}
