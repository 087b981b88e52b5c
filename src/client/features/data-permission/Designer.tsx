import { useEffect, useState, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import {
  DndContext,
  DragOverlay,
  PointerSensor,
  pointerWithin,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core'
import { Button, Empty, Select, Space, Tag, theme, Tooltip, Typography } from 'antd'
import { ApartmentOutlined, DeleteOutlined, FilterOutlined, HolderOutlined } from '@ant-design/icons'
import { DATA_PERMISSION_CALC_TYPE as CALC } from '../../../shared/generated/enum-codes.js'
import type { EnumCatalog } from '../../../shared/metadata/enum-catalog.js'
import { useFeedback } from '../../components/feedback.js'
import { useTr } from '../../i18n/use-tr.js'
import { ConditionValue } from './ConditionValue.js'
import {
  CALC_NAME,
  CONDITION_LABEL,
  addTarget,
  changeConditionType,
  deleteConfirmText,
  findNode,
  insertNode,
  isCalc,
  isSql,
  moveNode,
  newCalcNode,
  newConditionNode,
  removeNode,
  updateNode,
  type DesignerNode,
  type PaletteItem,
  type TreeChange,
} from './tree-rules.js'

/** What is being dragged: a palette entry (a new node) or a node of the tree. */
type DragData = { kind: 'calc'; calcType: number } | { kind: 'condition'; item: PaletteItem } | { kind: 'node'; id: string }
/** Where it may land: an operation node's body, or the top level (null). */
type DropData = { parentId: string | null }

const ROOT_DROP = 'dp-drop-root'

/** Nested drop areas all contain the pointer: the innermost (smallest) one wins. */
const innermost: CollisionDetection = (args) => {
  const hits = pointerWithin(args)
  const area = (id: string | number) => {
    const r = args.droppableRects.get(id)
    return r ? r.width * r.height : Number.POSITIVE_INFINITY
  }
  return [...hits].sort((a, b) => area(a.id) - area(b.id))
}

export interface DesignerProps {
  /** The model's name (商品, 单据), for labels. */
  modelName: string
  palette: readonly PaletteItem[]
  tree: DesignerNode[]
  onChange: (tree: DesignerNode[]) => void
  selectedId: string | null
  onSelect: (id: string | null) => void
  /** The node the last check failed on (outlined). */
  invalidId?: string
  enums?: EnumCatalog
}

/**
 * One permission type's designer: the palette (并且, 或者, then the model's condition nodes) on the
 * left, the tree on the right. Nodes are added by dragging them into an operation node (or, for
 * operation nodes, the top level) or by clicking them (into the selected operation node; operation
 * nodes at the top level when nothing is selected). Tree nodes move by their handle.
 */
export function Designer({ modelName, palette, tree, onChange, selectedId, onSelect, invalidId, enums }: DesignerProps) {
  const tr = useTr()
  const { token } = theme.useToken()
  const { message, modal } = useFeedback()
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }))
  const [dragging, setDragging] = useState<DragData | null>(null)

  // A node removed (or a tree reloaded) cannot stay selected.
  useEffect(() => {
    if (selectedId && !findNode(tree, selectedId)) onSelect(null)
  }, [tree, selectedId, onSelect])

  const apply = (change: TreeChange): boolean => {
    if (!change.ok) {
      message.error(tr(change.message))
      return false
    }
    onChange(change.tree)
    return true
  }

  const addFromPalette = (data: DragData, parentId: string | null) => {
    if (data.kind === 'node') return
    const node = data.kind === 'calc' ? newCalcNode(data.calcType) : newConditionNode(data.item)
    // A new operation node becomes the target of the next clicks.
    if (apply(insertNode(tree, parentId, node)) && isCalc(node)) onSelect(node.id)
  }

  const onPaletteClick = (data: DragData) => addFromPalette(data, addTarget(tree, selectedId))

  const onDragStart = (e: DragStartEvent) => setDragging((e.active.data.current as DragData | undefined) ?? null)
  const onDragEnd = (e: DragEndEvent) => {
    setDragging(null)
    const data = e.active.data.current as DragData | undefined
    const drop = e.over?.data.current as DropData | undefined
    if (!data || !drop) return
    if (data.kind === 'node') apply(moveNode(tree, data.id, drop.parentId))
    else addFromPalette(data, drop.parentId)
  }

  const remove = (node: DesignerNode) =>
    modal.confirm({
      title: tr('提示'),
      content: tr(deleteConfirmText(node)),
      okText: tr('确定'),
      cancelText: tr('取消'),
      onOk: () => {
        onChange(removeNode(tree, node.id))
        if (selectedId && (selectedId === node.id || findNode([node], selectedId))) onSelect(null)
      },
    })

  const conditionOptions = (node: DesignerNode) =>
    (node.conditionTypes ?? []).map((c) => ({
      value: c,
      label: enums?.label('DATA_PERMISSION_CONDITION', c) ?? (CONDITION_LABEL[c] ? tr(CONDITION_LABEL[c]) : String(c)),
    }))

  const renderNode = (node: DesignerNode): ReactNode =>
    isCalc(node) ? (
      <CalcNode
        key={node.id}
        node={node}
        selected={selectedId === node.id}
        invalid={invalidId === node.id}
        onSelect={() => onSelect(node.id)}
        onCalcType={(calcType) => onChange(updateNode(tree, node.id, { calcType, name: CALC_NAME[calcType] }))}
        onDelete={() => remove(node)}
        draggingCondition={dragging?.kind === 'condition'}
      >
        {(node.children ?? []).map(renderNode)}
      </CalcNode>
    ) : (
      <div
        key={node.id}
        className="dp-condition"
        data-node-id={node.id}
        role="group"
        aria-label={tr(`条件节点 ${node.name}`)}
        onClick={(e) => {
          e.stopPropagation()
          onSelect(node.id)
        }}
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 8,
          flexWrap: 'wrap',
          padding: '6px 8px',
          background: token.colorBgContainer,
          border: `1px solid ${invalidId === node.id ? token.colorError : selectedId === node.id ? token.colorPrimaryBorder : token.colorBorderSecondary}`,
          borderRadius: token.borderRadius,
        }}
      >
        <DragHandle id={node.id} label={tr(node.name)} />
        <FilterOutlined aria-hidden style={{ color: token.colorTextSecondary }} />
        <Typography.Text strong style={{ minWidth: 72 }}>
          {tr(node.name)}
        </Typography.Text>
        {!isSql(node) && (
          <Select
            aria-label={tr(`${node.name}的条件`)}
            style={{ width: 132 }}
            options={conditionOptions(node)}
            value={node.conditionType}
            onChange={(c: number) => onChange(changeConditionType(tree, node.id, c))}
          />
        )}
        <ConditionValue
          node={node}
          enums={enums}
          invalid={invalidId === node.id}
          onValue={(value) => onChange(updateNode(tree, node.id, { value }))}
          onValues={(values) => onChange(updateNode(tree, node.id, { values }))}
        />
        <span style={{ flex: 1 }} />
        <Tooltip title={tr('删除')}>
          <Button
            type="text"
            size="small"
            danger
            icon={<DeleteOutlined aria-hidden />}
            aria-label={tr(`删除条件节点 ${node.name}`)}
            onClick={(e) => {
              e.stopPropagation()
              remove(node)
            }}
          />
        </Tooltip>
      </div>
    )

  const selected = selectedId ? findNode(tree, selectedId) : undefined
  const target = addTarget(tree, selectedId)
  const targetNode = target ? findNode(tree, target) : undefined

  return (
    <DndContext sensors={sensors} collisionDetection={innermost} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={() => setDragging(null)}>
      <div className="dp-designer" style={{ display: 'flex', gap: 12, alignItems: 'stretch' }}>
        <div
          className="dp-palette"
          role="region"
          aria-label={tr(`${modelName}节点`)}
          style={{
            width: 232,
            flex: 'none',
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadius,
            padding: 8,
            maxHeight: '58vh',
            overflowY: 'auto',
          }}
        >
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {tr('运算节点')}
          </Typography.Text>
          <Space direction="vertical" size={6} style={{ width: '100%', margin: '6px 0 12px' }}>
            {[CALC.AND, CALC.OR].map((calcType) => (
              <PaletteButton
                key={`calc-${calcType}`}
                id={`palette-calc-${calcType}`}
                data={{ kind: 'calc', calcType }}
                label={tr(CALC_NAME[calcType])}
                icon={<ApartmentOutlined aria-hidden />}
                onClick={onPaletteClick}
              />
            ))}
          </Space>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {tr('条件节点')}
          </Typography.Text>
          <Space direction="vertical" size={6} style={{ width: '100%', marginTop: 6 }}>
            {palette.map((item) => (
              <PaletteButton
                key={`detail-${item.detailId ?? item.id}`}
                id={`palette-detail-${item.detailId ?? item.id}`}
                data={{ kind: 'condition', item }}
                label={tr(item.name)}
                icon={<FilterOutlined aria-hidden />}
                onClick={onPaletteClick}
              />
            ))}
          </Space>
        </div>
        <div style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 6 }}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} aria-live="polite">
            {targetNode
              ? selected && !isCalc(selected)
                ? tr(`点击左侧节点将添加到所选的【${targetNode.name}】节点（所选条件所在的运算节点）`)
                : tr(`点击左侧节点将添加到所选的【${targetNode.name}】节点`)
              : tr('点击左侧运算节点添加到最外层；选中运算节点后，点击条件节点添加到其中。也可以拖拽添加。')}
          </Typography.Text>
          <RootArea empty={!tree.length} rejecting={dragging?.kind === 'condition'} onClear={() => onSelect(null)}>
            {tree.map(renderNode)}
          </RootArea>
        </div>
      </div>
      {createPortal(
        <DragOverlay zIndex={2100} dropAnimation={null}>
          {dragging ? <DragPreview data={dragging} tree={tree} /> : null}
        </DragOverlay>,
        document.body,
      )}
    </DndContext>
  )
}

function PaletteButton({
  id,
  data,
  label,
  icon,
  onClick,
}: {
  id: string
  data: DragData
  label: string
  icon: ReactNode
  onClick: (data: DragData) => void
}) {
  const { setNodeRef, listeners, isDragging } = useDraggable({ id, data })
  // Keyboard users add by Enter / Space (a click); dragging is the pointer's way, so the button keeps
  // its own role and name (no drag instructions for screen readers).
  return (
    <Button
      ref={setNodeRef}
      block
      icon={icon}
      className="dp-palette-item"
      title={label}
      style={{
        textAlign: 'left',
        justifyContent: 'flex-start',
        whiteSpace: 'normal',
        height: 'auto',
        minHeight: 32,
        opacity: isDragging ? 0.5 : 1,
        touchAction: 'none',
      }}
      {...listeners}
      onClick={() => onClick(data)}
    >
      {label}
    </Button>
  )
}

function DragHandle({ id, label }: { id: string; label: string }) {
  // Pointer only: the handle is hidden from assistive technology (nodes are added by clicks there).
  const tr = useTr()
  const { setNodeRef, listeners } = useDraggable({ id: `node-${id}`, data: { kind: 'node', id } satisfies DragData })
  return (
    <span
      ref={setNodeRef}
      {...listeners}
      className="dp-handle"
      title={tr(`拖动【${label}】`)}
      aria-hidden
      style={{ cursor: 'grab', touchAction: 'none', color: 'rgba(0,0,0,0.35)', display: 'inline-flex' }}
    >
      <HolderOutlined />
    </span>
  )
}

function RootArea({ empty, rejecting, onClear, children }: { empty: boolean; rejecting: boolean; onClear: () => void; children: ReactNode }) {
  const tr = useTr()
  const { token } = theme.useToken()
  const { setNodeRef, isOver } = useDroppable({ id: ROOT_DROP, data: { parentId: null } satisfies DropData })
  const border = isOver ? (rejecting ? token.colorError : token.colorPrimary) : token.colorBorder
  return (
    <div
      ref={setNodeRef}
      className="dp-tree"
      role="region"
      aria-label={tr('数据权限条件树')}
      onClick={onClear}
      style={{
        flex: 1,
        minHeight: 380,
        maxHeight: '58vh',
        overflowY: 'auto',
        border: `1px dashed ${border}`,
        borderRadius: token.borderRadius,
        background: isOver && rejecting ? token.colorErrorBg : token.colorFillQuaternary,
        padding: 10,
        display: 'flex',
        flexDirection: 'column',
        gap: 10,
      }}
    >
      {empty ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={tr('拖拽或点击左侧的运算节点（并且、或者）开始设置')} style={{ margin: 'auto' }} />
      ) : (
        children
      )}
    </div>
  )
}

function CalcNode({
  node,
  selected,
  invalid,
  onSelect,
  onCalcType,
  onDelete,
  draggingCondition,
  children,
}: {
  node: DesignerNode
  selected: boolean
  invalid: boolean
  onSelect: () => void
  onCalcType: (calcType: number) => void
  onDelete: () => void
  draggingCondition: boolean
  children: ReactNode
}) {
  const tr = useTr()
  const { token } = theme.useToken()
  const { setNodeRef, isOver } = useDroppable({ id: `drop-${node.id}`, data: { parentId: node.id } satisfies DropData })
  const empty = !node.children?.length
  const other = node.calcType === CALC.OR ? CALC.AND : CALC.OR
  const border = invalid ? token.colorError : selected ? token.colorPrimary : token.colorBorderSecondary
  return (
    <div
      className="dp-calc"
      data-node-id={node.id}
      role="group"
      aria-label={tr(`运算节点 ${node.name}`)}
      onClick={(e) => {
        e.stopPropagation()
        onSelect()
      }}
      style={{
        border: `1px solid ${border}`,
        boxShadow: selected ? `0 0 0 2px ${token.colorPrimaryBg}` : undefined,
        borderRadius: token.borderRadiusLG,
        background: token.colorBgContainer,
      }}
    >
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 8,
          padding: '6px 8px',
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
          background: selected ? token.colorPrimaryBg : token.colorFillAlter,
          borderRadius: `${token.borderRadiusLG}px ${token.borderRadiusLG}px 0 0`,
        }}
      >
        <DragHandle id={node.id} label={tr(node.name)} />
        <Button
          size="small"
          type={selected ? 'primary' : 'default'}
          aria-pressed={selected}
          aria-label={tr(`选择运算节点 ${node.name}`)}
          onClick={(e) => {
            e.stopPropagation()
            onSelect()
          }}
        >
          {tr(node.name)}
        </Button>
        <Button
          size="small"
          type="link"
          onClick={(e) => {
            e.stopPropagation()
            onCalcType(other)
          }}
        >
          {tr(`改为${CALC_NAME[other]}`)}
        </Button>
        {selected && <Tag color="blue">{tr('添加目标')}</Tag>}
        <span style={{ flex: 1 }} />
        <Tooltip title={tr('删除')}>
          <Button
            type="text"
            size="small"
            danger
            icon={<DeleteOutlined aria-hidden />}
            aria-label={tr(`删除运算节点 ${node.name}`)}
            onClick={(e) => {
              e.stopPropagation()
              onDelete()
            }}
          />
        </Tooltip>
      </div>
      <div
        ref={setNodeRef}
        className="dp-calc-body"
        style={{
          padding: 8,
          paddingInlineStart: 20,
          display: 'flex',
          flexDirection: 'column',
          gap: 8,
          minHeight: 44,
          background: isOver ? token.colorPrimaryBg : undefined,
          outline: isOver ? `1px dashed ${token.colorPrimary}` : undefined,
          borderRadius: `0 0 ${token.borderRadiusLG}px ${token.borderRadiusLG}px`,
        }}
      >
        {empty ? (
          <Typography.Text type={invalid ? 'danger' : 'secondary'} style={{ fontSize: 12, padding: '4px 0' }}>
            {draggingCondition ? tr('放到这里') : tr('拖入或点击添加条件节点、运算节点')}
          </Typography.Text>
        ) : (
          children
        )}
      </div>
    </div>
  )
}

function DragPreview({ data, tree }: { data: DragData; tree: readonly DesignerNode[] }) {
  const tr = useTr()
  const { token } = theme.useToken()
  const name = data.kind === 'calc' ? CALC_NAME[data.calcType] : data.kind === 'condition' ? data.item.name : (findNode(tree, data.id)?.name ?? '')
  const calc = data.kind === 'calc' || (data.kind === 'node' && Boolean(findNode(tree, data.id)?.children))
  return (
    <div
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 6,
        padding: '4px 12px',
        background: token.colorBgElevated,
        border: `1px solid ${token.colorPrimary}`,
        borderRadius: token.borderRadius,
        boxShadow: token.boxShadowSecondary,
        cursor: 'grabbing',
        whiteSpace: 'nowrap',
      }}
    >
      {calc ? <ApartmentOutlined /> : <FilterOutlined />}
      {tr(name)}
    </div>
  )
}
