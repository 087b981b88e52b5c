import { useEffect, useMemo, useRef, useState } from 'react'
import { Alert, Button, Checkbox, Collapse, Form, Input, Result, Select, Space, Steps } from 'antd'
import { useNavigate } from 'react-router-dom'
import { call } from '../api/call.js'
import { useMeta, type Meta } from '../api/meta.js'
import { entityApi } from '../runtime/entity-api.js'
import { nextCode } from '../runtime/next-code.js'
import PickerInput from '../runtime/picker/PickerInput.js'
import { deriveRules } from '../../shared/metadata/derive.js'
import { entityCalls } from '../../shared/contracts/entity-calls.js'
import { lowcode, lowcodeChoices, type GenTable, type ObjColumnOption } from '../../shared/contracts/lowcode.js'
import { GEN_DATA_TYPE as DT, MENU_COMPONENT_TYPE as CT, MENU_DISPLAY, QUERY_TYPE as QT } from '../../shared/generated/enum-codes.js'
import { useTr } from '../i18n/use-tr.js'
import CustomListHost from './CustomListHost.js'
import { proposedAlias } from './table-alias.js'
import GuardedModal from '../runtime/GuardedModal.js'
import { tableLabel, useGenTables } from './use-gen-tables.js'

/**
 * 向导新建: the custom list chain as one flow an admin can follow. A table (its data entity made when it
 * has none) becomes a data object whose 主表别名 is proposed from the table (shown under 高级设置 only);
 * the list's columns are ticked while a preview shows real rows through the very call the menu page
 * makes (the list is saved as it changes); a menu is proposed (编号, 路由路径) under a directory or page.
 * Joins and SQL fields stay on the data object's own screen, for later.
 */

const NUMBER_TYPES: number[] = [DT.INTEGER, DT.SHORT, DT.LONG, DT.DOUBLE, DT.BIG_DECIMAL]
/** How many columns a new list starts with ticked. */
const FIRST_COLUMNS = 6

/** Bookkeeping columns (keys, references) are offered but not ticked at first. */
const isBookkeeping = (c: ObjColumnOption) => c.isKey || c.dbColumnName === 'id' || c.dbColumnName.endsWith('_id')

interface Built {
  dataObjId?: string
  /** What the next step proposes as a name: the data object's, then the list's. */
  name?: string
  listId?: string
  listPath?: string
}

export default function CustomListWizard({ open, onClose }: { open: boolean; onClose: () => void }) {
  const tr = useTr()
  const meta = useMeta()
  const [step, setStep] = useState(0)
  const [built, setBuilt] = useState<Built>({})
  const close = () => {
    setStep(0)
    setBuilt({})
    onClose()
  }
  return (
    // Each step saves what it made, so only the step in hand can hold unsaved input.
    <GuardedModal open={open} savedAt={step} title={tr('向导新建自定义列表')} width={1000} footer={null} destroyOnClose maskClosable={false} onCancel={close}>
      <Steps size="small" current={step} style={{ marginBottom: 24 }} items={[{ title: tr('数据表') }, { title: tr('列表字段') }, { title: tr('菜单') }, { title: tr('完成') }]} />
      {meta && step === 0 && <TableStep meta={meta} onDone={(dataObjId, name) => (setBuilt({ dataObjId, name }), setStep(1))} />}
      {meta && step === 1 && built.dataObjId && (
        <ColumnsStep meta={meta} dataObjId={built.dataObjId} initialName={built.name ?? ''} onDone={(listId, name) => (setBuilt({ ...built, listId, name }), setStep(2))} />
      )}
      {meta && step === 2 && built.listId && <MenuStep meta={meta} listId={built.listId} initialTitle={built.name ?? ''} onDone={(path) => (setBuilt({ ...built, listPath: path }), setStep(3))} />}
      {step === 3 && <DoneStep path={built.listPath ?? ''} onClose={close} />}
    </GuardedModal>
  )
}

/** Step 1: a table, the data object's name and (高级设置) its 主表别名. */
function TableStep({ meta, onDone }: { meta: Meta; onDone: (dataObjId: string, name: string) => void }) {
  const tr = useTr()
  const [search, setSearch] = useState('')
  const { tables, loading } = useGenTables(search)
  const [table, setTable] = useState<GenTable>()
  const [name, setName] = useState('')
  const [alias, setAlias] = useState('')
  const [saving, setSaving] = useState(false)
  const choose = (tableName: string) => {
    const picked = tables.find((t) => t.tableName === tableName)
    if (!picked) return
    setTable(picked)
    setName([...(picked.tableComment || picked.tableName)].slice(0, 20).join(''))
    setAlias(proposedAlias(picked.tableName))
  }
  const next = async () => {
    if (!table) return
    setSaving(true)
    try {
      const entityId = await entityOfTable(meta, table)
      const dataObjId = await entityApi(meta.entity('genDataObj')).create({ name, mainTableId: entityId, mainTableAlias: alias, available: true })
      onDone(String(dataObjId), name)
    } catch {
      // The api layer has shown the server's message; the step stays for a correction.
    } finally {
      setSaving(false)
    }
  }
  return (
    <Form layout="vertical" style={{ maxWidth: 560 }}>
      <Form.Item label={tr('数据表')} required extra={tr('列表显示这张表的数据')}>
        <Select
          aria-label={tr('数据表')}
          showSearch
          filterOption={false}
          loading={loading}
          placeholder={tr('请选择数据表')}
          value={table?.tableName}
          options={tables.map((t) => ({ value: t.tableName, label: tableLabel(t) }))}
          onSearch={setSearch}
          onChange={choose}
          notFoundContent={loading ? tr('加载中…') : tr('没有匹配的数据表')}
        />
      </Form.Item>
      <Form.Item label={tr('数据对象名称')} required>
        <Input aria-label={tr('数据对象名称')} maxLength={20} value={name} onChange={(e) => setName(e.target.value)} />
      </Form.Item>
      <Collapse
        ghost
        items={[
          {
            key: 'advanced',
            label: tr('高级设置'),
            children: (
              <Form.Item label={tr('主表别名')} extra={tr('查询语句中这张表的简称；关联表和自定义查询字段可稍后在数据对象中设置')}>
                <Input aria-label={tr('主表别名')} value={alias} onChange={(e) => setAlias(e.target.value.trim())} />
              </Form.Item>
            ),
          },
        ]}
      />
      <Button type="primary" disabled={!table || !name.trim() || !alias} loading={saving} onClick={() => void next()}>
        {tr('下一步')}
      </Button>
    </Form>
  )
}

/** The data entity of a table: the one there is, or one made from its columns. */
async function entityOfTable(meta: Meta, table: GenTable): Promise<string> {
  const calls = entityCalls(meta.entity('genDataEntity').file.api!.base)
  const found = await call(calls.query, { tableName: table.tableName, pageIndex: 1, pageSize: 100 })
  const rows = Array.isArray(found) ? found : found.datas
  const existing = rows.find((r) => r.tableName === table.tableName)
  if (existing) return String(existing.id)
  return call(lowcode.syncTable, { tableName: table.tableName, name: table.tableComment || table.tableName })
}

/** Step 2: the list's name and columns, saved as they change, with the list itself below as the preview. */
function ColumnsStep({ meta, dataObjId, initialName, onDone }: { meta: Meta; dataObjId: string; initialName: string; onDone: (listId: string, name: string) => void }) {
  const tr = useTr()
  const [columns, setColumns] = useState<ObjColumnOption[]>([])
  const [chosen, setChosen] = useState<string[]>([])
  const [name, setName] = useState(initialName)
  const [listId, setListId] = useState<string>()
  const savedId = useRef<string>()
  const [shown, setShown] = useState(0)
  const saving = useRef<Promise<unknown>>(Promise.resolve())
  useEffect(() => {
    void call(lowcodeChoices.objColumns, { id: dataObjId }).then((cols) => {
      setColumns(cols)
      setChosen(cols.filter((c) => !isBookkeeping(c)).slice(0, FIRST_COLUMNS).map((c) => c.relaId))
    })
  }, [dataObjId])
  const body = useMemo(() => listBody(dataObjId, name, columns, chosen), [dataObjId, name, columns, chosen])
  // Saved a moment after the last change; each save waits for the one before (the first one creates).
  useEffect(() => {
    if (!body) return
    const timer = setTimeout(() => {
      saving.current = saving.current.then(async () => {
        const lists = entityApi(meta.entity('genCustomList'))
        try {
          if (savedId.current) await lists.modify({ ...body, id: savedId.current })
          else setListId((savedId.current = String(await lists.create(body))))
          setShown((n) => n + 1)
        } catch {
          // The api layer has shown why; the next change saves again.
        }
      })
    }, 400)
    return () => clearTimeout(timer)
  }, [body, meta])
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Form layout="vertical" style={{ maxWidth: 560 }}>
        <Form.Item label={tr('列表名称')} required>
          <Input aria-label={tr('列表名称')} maxLength={20} value={name} onChange={(e) => setName(e.target.value)} />
        </Form.Item>
      </Form>
      <div role="group" aria-label={tr('显示的列')}>
        <div style={{ marginBottom: 8 }}>{tr('显示的列')}</div>
        <Checkbox.Group value={chosen} onChange={(v) => setChosen(columns.map((c) => c.relaId).filter((id) => v.includes(id)))} options={columns.map((c) => ({ value: c.relaId, label: c.name }))} />
      </div>
      <section aria-label={tr('列表预览')} style={{ border: '1px solid #f0f0f0', borderRadius: 8, padding: 8, background: '#f5f5f5' }}>
        {listId && shown > 0 ? <CustomListHost key={listId} listId={listId} revision={shown} /> : <Alert type="info" showIcon message={tr('勾选要显示的列，这里显示列表的实际数据')} />}
      </section>
      <Button type="primary" disabled={!listId || !body} onClick={() => void saving.current.then(() => listId && onDone(listId, name))}>
        {tr('下一步')}
      </Button>
    </Space>
  )
}

/** The custom list of the chosen columns: paged, searched by its first text column, keyed by the main table's id. */
function listBody(dataObjId: string, name: string, columns: ObjColumnOption[], chosen: string[]) {
  const fields = columns.filter((c) => chosen.includes(c.relaId))
  if (!name.trim() || !fields.length) return undefined
  const key = columns.find((c) => c.isKey) ?? columns.find((c) => c.dbColumnName === 'id')
  const searched = fields.find((c) => c.dataType === DT.STRING && !c.fixEnum)
  return {
    name: name.trim(),
    dataObjId,
    listType: 0,
    labelWidth: 80,
    hasPage: true,
    treeData: false,
    allowExport: false,
    available: true,
    idColumn: key?.relaId ?? null,
    fields: fields.map((c) => ({
      relaId: c.relaId,
      name: c.name,
      widthType: 0,
      width: 140,
      sortable: false,
      isNumberType: NUMBER_TYPES.includes(c.dataType) && !c.fixEnum,
      hasAvailableTag: c.dbColumnName === 'available',
      fixEnum: c.fixEnum,
      frontType: c.enumFront,
      formatter: null,
    })),
    queryParams: searched
      ? [{ relaId: searched.relaId, name: searched.name, viewType: 0, queryType: QT.AROUND_LIKE, defaultValue: null, fixEnum: false, frontType: null, hasAvailableTag: false, dataDicCode: null, customSelectorId: null, formWidth: 6, frontShow: true }]
      : [],
    toolbars: [],
    handleColumns: [],
  }
}

/** Step 3: the menu that opens the list: a name, a directory or page above it, a proposed 编号 and 路由路径. */
function MenuStep({ meta, listId, initialTitle, onDone }: { meta: Meta; listId: string; initialTitle: string; onDone: (path: string) => void }) {
  const tr = useTr()
  const [title, setTitle] = useState(initialTitle)
  const [parent, setParent] = useState<{ id: string; path: string }>()
  const [code, setCode] = useState('')
  const [path, setPath] = useState('')
  const ownPath = useRef(false)
  const [saving, setSaving] = useState(false)
  useEffect(() => {
    void nextCode('menu', 'code').then((proposed) => proposed && setCode((typed) => typed || proposed))
  }, [])
  useEffect(() => {
    if (!ownPath.current) setPath(deriveRules.menuPath(parent?.path, title))
  }, [parent, title])
  const save = async () => {
    setSaving(true)
    try {
      await entityApi(meta.entity('menu')).create({
        code,
        title,
        parentId: parent?.id ?? null,
        display: MENU_DISPLAY.FUNCTION,
        componentType: CT.CUSTOM_LIST,
        component: listId,
        path,
        available: true,
      })
      onDone(path)
    } catch {
      // The api layer has shown the server's message (a duplicate 编号 names its menu).
    } finally {
      setSaving(false)
    }
  }
  return (
    <Form layout="vertical" style={{ maxWidth: 560 }}>
      <Form.Item label={tr('菜单名称')} required>
        <Input aria-label={tr('菜单名称')} maxLength={20} value={title} onChange={(e) => setTitle(e.target.value)} />
      </Form.Item>
      <Form.Item label={tr('上级菜单')} extra={tr('目录或页面')}>
        <PickerInput
          kind="menu"
          aria-label={tr('上级菜单')}
          value={parent?.id}
          onChange={(id, rows) => setParent(typeof id === 'string' && id ? { id, path: String(rows[0]?.path ?? '') } : undefined)}
        />
      </Form.Item>
      <Form.Item label={tr('编号')} required>
        <Input aria-label={tr('编号')} maxLength={20} value={code} onChange={(e) => setCode(e.target.value)} />
      </Form.Item>
      <Form.Item label={tr('路由路径')} required>
        <Input
          aria-label={tr('路由路径')}
          value={path}
          onChange={(e) => {
            ownPath.current = e.target.value !== ''
            setPath(e.target.value)
          }}
        />
      </Form.Item>
      <Button type="primary" disabled={!title.trim() || !code.trim() || !path.trim()} loading={saving} onClick={() => void save()}>
        {tr('创建菜单')}
      </Button>
    </Form>
  )
}

function DoneStep({ path, onClose }: { path: string; onClose: () => void }) {
  const tr = useTr()
  const navigate = useNavigate()
  return (
    <Result
      status="success"
      title={tr('自定义列表已放到菜单上')}
      subTitle={path}
      extra={[
        <Button
          key="open"
          type="primary"
          onClick={() => {
            onClose()
            navigate(path)
          }}
        >
          {tr('打开列表')}
        </Button>,
        <Button key="close" onClick={onClose}>
          {tr('关闭')}
        </Button>,
      ]}
    />
  )
}
