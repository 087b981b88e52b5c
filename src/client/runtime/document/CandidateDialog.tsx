import { useEffect, useState } from 'react'
import { Modal, Table } from 'antd'
import type { ColumnType } from 'antd/es/table'
import { useCall } from '../../app/use-call.js'
import { declaredCalls } from '../../../shared/contracts/document-calls.js'
import type { Meta } from '../../api/meta.js'
import type { DocumentSection } from '../../../shared/metadata/document-model.js'
import { usePageState } from '../../components/pager.js'
import { useTr } from '../../i18n/use-tr.js'

export type Candidates = NonNullable<NonNullable<DocumentSection['lines']['pick']>['candidates']>
type CandidateRow = Record<string, unknown>

export interface CandidateDialogProps {
  meta: Meta
  candidates: Candidates
  /** The line field identifying a candidate (`lines.pick.field`). */
  keyField: string
  /** Query of the call: the party and the date range from the header. */
  query: Record<string, unknown>
  /** Keys already on the document: shown ticked and disabled. */
  taken: ReadonlySet<string>
  open: boolean
  onCancel: () => void
  onConfirm: (rows: CandidateRow[]) => void
}

/**
 * The candidates of a document's lines from a paged server call (unchecked documents of a supplier for
 * a check sheet, unsettled check sheets for a settle sheet): filtered by the header's party and date
 * range on the server, ticks kept across pages.
 */
export default function CandidateDialog({ meta, candidates, keyField, query, taken, open, onCancel, onConfirm }: CandidateDialogProps) {
  const tr = useTr()
  const [page, setPage] = usePageState()
  const [chosen, setChosen] = useState<Map<string, CandidateRow>>(new Map())
  useEffect(() => {
    if (open) setChosen(new Map())
  }, [open])
  const params = { ...query, pageIndex: page.index, pageSize: page.size }
  const { data, isLoading } = useCall(open && declaredCalls.candidates(candidates), params)
  const keyOf = (row: CandidateRow) => String(row[keyField])
  const columns: ColumnType<CandidateRow>[] = (candidates.columns ?? []).map((c) => ({
    key: c.key,
    dataIndex: c.key,
    title: tr(c.title),
    width: c.width,
    render: (v: unknown) => (c.enum ? (meta.enums.label(c.enum, v) ?? String(v ?? '')) : v === null || v === undefined ? '' : String(v)),
  }))
  return (
    <Modal
      open={open}
      title={tr(candidates.title ?? '选择单据')}
      width={1000}
      onCancel={onCancel}
      onOk={() => onConfirm([...chosen.values()])}
      okText={tr('确定')}
      cancelText={tr('取消')}
      destroyOnHidden
    >
      <Table<CandidateRow>
        rowKey={keyOf}
        size="small"
        bordered
        loading={isLoading}
        columns={columns}
        dataSource={data?.datas ?? []}
        scroll={{ x: 'max-content', y: 480 }}
        rowSelection={{
          selectedRowKeys: [...taken, ...chosen.keys()],
          getCheckboxProps: (row) => ({ disabled: taken.has(keyOf(row)), 'aria-label': tr(`选择${String(row[(candidates.columns ?? [])[0]?.key ?? keyField] ?? '')}`) }),
          onSelect: (row, selected) =>
            setChosen((prev) => {
              const next = new Map(prev)
              if (selected) next.set(keyOf(row), row)
              else next.delete(keyOf(row))
              return next
            }),
          onSelectAll: (selected, _rows, changed) =>
            setChosen((prev) => {
              const next = new Map(prev)
              for (const row of changed) if (!taken.has(keyOf(row))) (selected ? next.set(keyOf(row), row) : next.delete(keyOf(row)))
              return next
            }),
        }}
        pagination={{
          current: page.index,
          pageSize: page.size,
          total: data?.totalCount ?? 0,
          showSizeChanger: true,
          showTotal: (total) => tr(`共 ${total} 条`),
          onChange: (index, size) => setPage({ index, size }),
        }}
        locale={{ emptyText: tr('没有可选的单据') }}
      />
    </Modal>
  )
}
