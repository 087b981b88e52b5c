import { useEffect, useMemo, useState } from 'react'
import { Empty, Spin, Tree } from 'antd'
import type { DataNode } from 'antd/es/tree'
import { useCall } from '../../app/use-call.js'
import { pickerCall } from '../../../shared/contracts/picker-calls.js'
import type { EntityRow } from '../entity-api.js'
import { initialSearchValues, searchItems, toWireQuery, type SearchItem } from '../query-params.js'
import { buildTree, filterTreeRows, parentKeys, type TreeRow } from '../tree-rows.js'
import { useFeedback } from '../../components/feedback.js'
import { describeRow, labelFieldOf } from './picker-labels.js'
import QueryForm from '../QueryForm.js'
import PickerModal from './PickerModal.js'
import type { PickerDialogProps } from './PickerDialog.js'
import { useTr } from '../../i18n/use-tr.js'

/** The same contract as the paged picker; `onlyFinal` lets only leaves be chosen (also when the entity declares `tree.onlyFinal`). */
export type TreePickerProps = PickerDialogProps

/** The spec's tree picker height (000 §9: tree dropdown max height 400px). */
const TREE_HEIGHT = 400

/**
 * Picker over a tree entity (`/selector/{kind}` answers every row with its parent): the status goes
 * to the server, the text boxes filter the loaded tree in the browser by the node's trimmed name (000),
 * the code typed into 编号 still found.
 */
export default function TreePicker({ meta, entity, open, multiple, onlyFinal, value, onCancel, onClear, onConfirm }: TreePickerProps) {
  const tr = useTr()
  const picker = entity.file.views!.picker!
  const parentField = entity.parentField!
  const finalOnly = Boolean(onlyFinal ?? entity.file.tree?.onlyFinal)
  const { message } = useFeedback()
  const items = useMemo(
    () => searchItems(entity, picker.filters ?? [], meta.enums, meta.entityOrUndefined, 'picker'),
    [entity, picker, meta],
  )
  const isText = (i: SearchItem) => i.control === 'text'
  const [values, setValues] = useState<Record<string, unknown>>(() => initialSearchValues(items))
  const [chosen, setChosen] = useState<Map<string, EntityRow>>(new Map())
  const [expanded, setExpanded] = useState<string[]>([])

  useEffect(() => {
    if (!open) return
    setChosen(new Map(value.map((r) => [r.id, r])))
    // The search form is made anew at each opening: so are its conditions.
    setValues(initialSearchValues(items))
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open])

  const serverQuery = toWireQuery(items.filter((i) => !isText(i)), values, 'picker')
  const { data, isLoading } = useCall(open && pickerCall(picker.kind), serverQuery)
  const rows = useMemo(() => data?.datas ?? [], [data])
  const textFilters = Object.fromEntries(
    items.filter(isText).map((i) => [i.field.name, typeof values[i.key] === 'string' ? (values[i.key] as string) : '']),
  )
  const filterKey = JSON.stringify(textFilters)
  const nameField = entity.byName.has('name') ? 'name' : labelFieldOf(entity)
  const tree = useMemo(
    () => buildTree(filterTreeRows(rows, parentField, JSON.parse(filterKey) as Record<string, string>, nameField), parentField),
    [rows, parentField, filterKey, nameField],
  )
  const byId = useMemo(() => new Map(rows.map((r) => [r.id, r])), [rows])
  // Leafness comes from all rows: a category with children is not final even when a search hides them.
  const hasChildren = useMemo(() => new Set(rows.map((r) => String(r[parentField] ?? '')).filter(Boolean)), [rows, parentField])
  const pickable = (id: string) => !finalOnly || !hasChildren.has(id)

  useEffect(() => setExpanded(parentKeys(tree)), [tree])

  const toNode = (row: TreeRow<EntityRow>): DataNode => ({
    key: row.id,
    title: describeRow(row),
    children: row.children?.map(toNode),
    selectable: pickable(row.id),
    disableCheckbox: !pickable(row.id),
  })
  const treeData = tree.map(toNode)

  const confirm = () => {
    const picked = [...chosen.values()]
    if (!multiple && !picked.length) {
      message.warning(tr('请选择数据！'))
      return
    }
    onConfirm(picked)
  }

  return (
    <PickerModal
      entity={entity}
      open={open}
      multiple={multiple}
      chosen={[...chosen.values()]}
      onCancel={onCancel}
      onClear={onClear}
      onConfirm={confirm}
    >
      <QueryForm items={items} onSearch={setValues} showReset={Boolean(picker.resetButton)} enterToSearch={picker.enterToSearch !== false} span={8} />
      <Spin spinning={isLoading}>
        {treeData.length ? (
          <Tree
            blockNode
            height={TREE_HEIGHT}
            treeData={treeData}
            expandedKeys={expanded}
            onExpand={(keys) => setExpanded(keys.map(String))}
            checkable={multiple}
            checkStrictly
            selectable={!multiple}
            checkedKeys={multiple ? { checked: [...chosen.keys()], halfChecked: [] } : undefined}
            selectedKeys={multiple ? [] : [...chosen.keys()]}
            onCheck={(_keys, info) => {
              const id = String(info.node.key)
              const row = byId.get(id)
              if (!row || !pickable(id)) return
              setChosen((prev) => {
                const next = new Map(prev)
                if (info.checked) next.set(id, row)
                else next.delete(id)
                return next
              })
            }}
            onSelect={(_keys, info) => {
              const id = String(info.node.key)
              const row = byId.get(id)
              if (row && pickable(id)) setChosen(new Map([[id, row]]))
            }}
            onDoubleClick={(_e, node) => {
              const id = String(node.key)
              const row = byId.get(id)
              if (!multiple && row && pickable(id)) onConfirm([row])
            }}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
        )}
      </Spin>
    </PickerModal>
  )
}
