import { useEffect, useMemo, useState } from 'react'
import { Button, Table } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import type { ColumnType } from 'antd/es/table'
import { call } from '../../api/call.js'
import { useSessionRead } from '../../app/use-call.js'
import { pickerCall } from '../../../shared/contracts/picker-calls.js'
import type { Meta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { EntityRow } from '../entity-api.js'
import { buildColumns, SEQ_WIDTH } from '../list-columns.js'
import { hasOperation, operationKeys } from '../../../shared/metadata/operation-keys.js'
import { initialSearchValues, searchItems, toWireQuery } from '../query-params.js'
import { useFeedback } from '../../components/feedback.js'
import PickerModal from './PickerModal.js'
// Forms hold pickers and a picker may add a row through the form: an import cycle of function components, resolved at render time.
import { pickerAddForm } from './picker-slots.js'
import { tablePagination, usePageState } from '../../components/pager.js'
import { useTr } from '../../i18n/use-tr.js'

export interface PickerDialogProps {
  meta: Meta
  /** The entity whose `views.picker` this dialog shows. */
  entity: EntityModel
  open: boolean
  multiple: boolean
  /** Tree pickers: only leaves may be chosen (the paged picker ignores it). */
  onlyFinal?: boolean
  /** Rows already chosen when the dialog opens. */
  value: readonly EntityRow[]
  onCancel: () => void
  onClear: () => void
  onConfirm: (rows: EntityRow[]) => void
  /**
   * The warehouse of the document being entered: a picker declaring `warehouseStock` (products) is
   * asked for each row's available stock there and shows it as a column.
   */
  warehouse?: string
}

/**
 * The grid's height (000: grid max height 600): 600 px where the window has room, else what is left under
 * the dialog's title, search form and footer, never below ten rows, so the rows are never squeezed to two.
 */
const PICKER_GRID_HEIGHT = 'clamp(360px, calc(100vh - 380px), 600px)'

/**
 * The paged picker of `/selector/{kind}`: search form from `views.picker.filters`, table from its
 * columns; single mode chooses by radio or double-click, multiple mode by ticks kept across pages.
 */
export default function PickerDialog({ meta, entity, open, multiple, value, onCancel, onClear, onConfirm, warehouse }: PickerDialogProps) {
  const tr = useTr()
  const picker = entity.file.views!.picker!
  const { message } = useFeedback()
  const can = usePermission()
  const items = useMemo(
    () => searchItems(entity, picker.filters ?? [], meta.enums, meta.entityOrUndefined, 'picker'),
    [entity, picker, meta],
  )
  const [query, setQuery] = useState(() => toWireQuery(items, initialSearchValues(items), 'picker'))
  const [page, setPage] = usePageState()
  const [chosen, setChosen] = useState<Map<string, EntityRow>>(new Map())
  const [adding, setAdding] = useState(false)
  // 查询 fetches again even with unchanged conditions.
  const [searchCount, setSearchCount] = useState(0)

  useEffect(() => {
    if (open) setChosen(new Map(value.map((r) => [r.id, r])))
    // Only on opening: the chosen rows then belong to the dialog until confirm or cancel.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open])

  const stock = picker.warehouseStock && warehouse ? picker.warehouseStock : undefined
  const params = { ...query, ...(stock ? { [stock.param]: warehouse } : {}), pageIndex: page.index, pageSize: page.size }
  const selector = pickerCall(picker.kind)
  // Keyed by the search count as well: 查询 with unchanged conditions is a new read (loading shown), not a cached one.
  const { data, isLoading, mutate } = useSessionRead(open ? [selector.path, JSON.stringify(params), searchCount] : null, () => call(selector, params), {
    keepPreviousData: true,
  })

  const search = (values: Record<string, unknown>) => {
    setQuery(toWireQuery(items, values, 'picker'))
    setPage((p) => ({ ...p, index: 1 }))
    setSearchCount((n) => n + 1)
  }

  const select = (rows: EntityRow[], selected: boolean) =>
    setChosen((prev) => {
      const next = multiple ? new Map(prev) : new Map<string, EntityRow>()
      for (const row of rows) {
        if (selected) next.set(row.id, row)
        else next.delete(row.id)
      }
      return next
    })

  const confirm = () => {
    const rows = [...chosen.values()]
    if (!multiple && !rows.length) {
      message.warning(tr('请选择数据！'))
      return
    }
    onConfirm(rows)
  }

  const seq: ColumnType<EntityRow> = {
    key: '__seq',
    title: tr('序号'),
    width: SEQ_WIDTH,
    align: 'center',
    render: (_v, _r, i) => (page.index - 1) * page.size + i + 1,
  }
  const columns = [seq, ...buildColumns(entity, picker.columns, meta.enums, { sortable: false })]
  if (stock)
    columns.splice(3, 0, {
      key: stock.field,
      title: stock.label,
      width: 100,
      align: 'right',
      render: (_v, row) => (row[stock.field] === null || row[stock.field] === undefined ? '' : String(row[stock.field])),
    })
  const AddForm = pickerAddForm()
  const canAdd = AddForm !== undefined && picker.addButton && hasOperation(entity, 'create') && can(operationKeys(entity, 'create'))

  return (
    <PickerModal
      entity={entity}
      open={open}
      multiple={multiple}
      chosen={[...chosen.values()]}
      searchItems={items}
      onSearch={search}
      onCancel={onCancel}
      onClear={onClear}
      onConfirm={confirm}
    >
      {canAdd && (
        <div style={{ marginBottom: 8 }}>
          <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setAdding(true)}>
            {tr('新增')}
          </Button>
        </div>
      )}
      <Table<EntityRow>
        rowKey="id"
        size="small"
        bordered
        columns={columns}
        dataSource={data?.datas ?? []}
        loading={isLoading}
        scroll={{ x: 'max-content', y: PICKER_GRID_HEIGHT }}
        rowSelection={{
          type: multiple ? 'checkbox' : 'radio',
          selectedRowKeys: [...chosen.keys()],
          preserveSelectedRowKeys: true,
          onSelect: (row, selected) => select([row], selected),
          onSelectAll: (selected, _rows, changed) => select(changed.filter(Boolean), selected),
        }}
        onRow={(row) => ({
          onClick: () => select([row], multiple ? !chosen.has(row.id) : true),
          onDoubleClick: () => {
            if (!multiple) onConfirm([row])
          },
        })}
        pagination={tablePagination(page, data?.totalCount ?? 0, setPage)}
      />
      {canAdd && AddForm && (
        <AddForm
          meta={meta}
          entity={entity}
          dialog={adding ? { mode: 'add' } : null}
          onClose={() => setAdding(false)}
          onSaved={() => {
            setAdding(false)
            void mutate()
          }}
        />
      )}
    </PickerModal>
  )
}
