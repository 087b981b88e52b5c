import { useState, type ReactNode } from 'react'
import { Button, Modal, Space, Table } from 'antd'
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons'
import type { ColumnType } from 'antd/es/table'
import ScriptEditor from './ScriptEditor.js'
import { useTr } from '../i18n/use-tr.js'

export type EditorRow = Record<string, unknown> & { id: string }

export interface RowsEditorColumn {
  key: string
  title: string
  width?: number
  render: (row: EditorRow, set: (patch: Record<string, unknown>) => void) => ReactNode
}

export interface RowsEditorProps {
  value: unknown
  onChange?: (rows: EditorRow[]) => void
  columns: RowsEditorColumn[]
  newRow: () => Omit<EditorRow, 'id'>
  addText: string
  readOnly?: boolean
  ariaLabel?: string
  /** rows come from elsewhere (a table's columns): no 添加 button */
  hideAdd?: boolean
}

let seq = 0
export const newRowId = () => `r${Date.now().toString(36)}${(seq++).toString(36)}`

export const rowsOf = (value: unknown): EditorRow[] =>
  (Array.isArray(value) ? value : []).filter((r): r is EditorRow => !!r && typeof r === 'object').map((r) => ({ ...r, id: typeof r.id === 'string' && r.id ? r.id : newRowId() }))

/** A table of editable rows (list fields, query params, buttons, joins): add, remove, move. */
export default function RowsEditor({ value, onChange, columns, newRow, addText, readOnly, ariaLabel, hideAdd }: RowsEditorProps) {
  const tr = useTr()
  const rows = rowsOf(value)
  const update = (next: EditorRow[]) => onChange?.(next)
  const set = (i: number) => (patch: Record<string, unknown>) => update(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)))
  const move = (i: number, d: number) => {
    const next = [...rows]
    const [r] = next.splice(i, 1)
    next.splice(i + d, 0, r)
    update(next)
  }
  const tableColumns: ColumnType<EditorRow>[] = columns.map((c) => ({
    key: c.key,
    title: c.title,
    width: c.width,
    render: (_v, row, i) => c.render(row, set(i)),
  }))
  if (!readOnly)
    tableColumns.push({
      key: '__ops',
      title: tr('操作'),
      width: 110,
      render: (_v, _row, i) => (
        <Space size={0}>
          <Button type="link" size="small" aria-label={tr('上移')} icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => move(i, -1)} />
          <Button type="link" size="small" aria-label={tr('下移')} icon={<ArrowDownOutlined />} disabled={i === rows.length - 1} onClick={() => move(i, 1)} />
          <Button type="link" size="small" danger aria-label={tr('删除')} icon={<DeleteOutlined />} onClick={() => update(rows.filter((_, j) => j !== i))} />
        </Space>
      ),
    })
  return (
    <div className="rows-editor" aria-label={ariaLabel} role="group">
      {!readOnly && !hideAdd && (
        <Button size="small" icon={<PlusOutlined />} style={{ marginBottom: 4 }} onClick={() => update([...rows, { ...newRow(), id: newRowId() }])}>
          {addText}
        </Button>
      )}
      <Table<EditorRow> rowKey="id" size="small" bordered pagination={false} columns={tableColumns} dataSource={rows} scroll={{ x: 'max-content' }} />
    </div>
  )
}

/** A script cell: a button that opens the script in Monaco. */
export function ScriptCell({ title, value, onChange, readOnly }: { title: string; value: unknown; onChange: (v: string) => void; readOnly?: boolean }) {
  const tr = useTr()
  const [open, setOpen] = useState(false)
  const [draft, setDraft] = useState('')
  const text = typeof value === 'string' ? value : ''
  return (
    <>
      <Button
        size="small"
        type={text.trim() ? 'primary' : 'default'}
        ghost={Boolean(text.trim())}
        onClick={() => {
          setDraft(text)
          setOpen(true)
        }}
      >
        {text.trim() ? tr('编辑脚本') : tr('设置脚本')}
      </Button>
      <Modal
        open={open}
        title={title}
        width={800}
        destroyOnClose
        onCancel={() => setOpen(false)}
        okButtonProps={{ disabled: readOnly }}
        onOk={() => {
          onChange(draft)
          setOpen(false)
        }}
      >
        <ScriptEditor value={draft} onChange={(v) => setDraft(String(v ?? ''))} readOnly={readOnly} height={320} aria-label={title} />
      </Modal>
    </>
  )
}
