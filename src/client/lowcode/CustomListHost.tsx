import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { Button, Result, Space, Spin, Tag, Tooltip } from 'antd'
import { useNavigate } from 'react-router-dom'
import { callDownload } from '../api/call.js'
import { useCall } from '../app/use-call.js'
import { lowcodeRuntime } from '../../shared/contracts/lowcode.js'
import { useMeta } from '../api/meta.js'
import { useFeedback } from '../components/feedback.js'
import { promptText } from '../components/text-prompt.js'
import { MenuIcon } from '../components/MenuIcon.js'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import ListView, { type ListContext } from '../runtime/ListView.js'
import { asRequestParam, buttonAction, buttonLook, type ButtonPlace } from './button-action.js'
import CustomFormHost from './CustomFormHost.js'
import CustomQueryForm from './CustomQueryForm.js'
import { customListChoice, customListSource, SHOW_MARK } from './custom-list-source.js'
import { buildConditions, initialQueryValues } from './list-conditions.js'
import type { CustomListConfig, ListButtonConfig, ListCondition, ListFieldConfig, ListRow } from '../../shared/contracts/lowcode-wire.js'
import { runButtonScript, runScript } from '../sandbox/script-runner.js'
import { ScriptError } from '../../shared/sandbox/script-error.js'
import { formatRows, formattedCell, plainRow } from './format-rows.js'
import { tr, useTr } from '../i18n/use-tr.js'

export interface CustomListHostProps {
  /** customListId */
  listId: string
  /** Selectors: choose rows whatever the list type says. */
  selectMode?: 'single' | 'multiple'
  /** Double-clicking a cell emits its row (001 §2). */
  onRowDoubleClick?: (row: ListRow) => void
  onSelectionChange?: (rows: ListRow[]) => void
  /** Hide toolbar and row buttons (inside a selector). */
  hideButtons?: boolean
  /** A new value reads the list's configuration again in place (the wizard's preview after each save). */
  revision?: number
}

/** The custom list screen (001 §2 "Custom list screen") rendered from `GET /gen/api/custom/list/config?id`. */
export default function CustomListHost(props: CustomListHostProps) {
  const tr = useTr()
  const { data: config, error, mutate } = useCall(lowcodeRuntime.listConfig, { id: props.listId }, { swr: { revalidateOnFocus: false } })
  const meta = useMeta()
  // Not a remount: the preview keeps its rows and height while the changed configuration loads.
  const revision = useRef(props.revision)
  useEffect(() => {
    if (props.revision === revision.current) return
    revision.current = props.revision
    void mutate()
  }, [props.revision, mutate])
  if (error) return <Result status="warning" title={tr('自定义列表加载失败')} subTitle={error instanceof Error ? error.message : undefined} />
  if (!config || !meta) return <Spin style={{ display: 'block', padding: 48 }} />
  return <CustomList {...props} config={config} enums={meta.enums} />
}

type Opened = { formId: string; requestParam?: Record<string, unknown> }

/** The conditions of a custom list's query as sent: `{ conditions }`. */
const conditionsOf = (query: Record<string, unknown>) => (query.conditions ?? []) as ListCondition[]

function CustomList({ listId, config, enums, selectMode, onRowDoubleClick, onSelectionChange, hideButtons }: CustomListHostProps & { config: CustomListConfig; enums: EnumCatalog }) {
  const { listConfig, queryParams } = config
  const feedback = useFeedback()
  const { message } = feedback
  const navigate = useNavigate()
  const [selected, setSelected] = useState<ListRow[]>([])
  const [opened, setOpened] = useState<Opened | null>(null)
  const [version, setVersion] = useState(0)
  const choose = selectMode ?? customListChoice(config)
  const source = useMemo(() => customListSource(listId, config, Boolean(choose)), [listId, config, choose])
  const idColumn = listConfig.idColumn || undefined
  const prepareRows = useCallback((rows: ListRow[]) => formatRows(listConfig.fields, idColumn, rows), [listConfig.fields, idColumn])
  const search = useMemo(
    () => ({
      initial: { conditions: buildConditions(queryParams, initialQueryValues(queryParams)) },
      form: (onSearch: (query: Record<string, unknown>) => void) => (
        <CustomQueryForm
          params={queryParams}
          enums={enums}
          labelWidth={listConfig.labelWidth}
          onSearch={(values) => onSearch({ conditions: buildConditions(queryParams, values) })}
          onExport={listConfig.allowExport ? (values) => void callDownload(lowcodeRuntime.exportList, { query: { id: listId }, body: { conditions: buildConditions(queryParams, values) } }) : undefined}
        />
      ),
    }),
    [queryParams, enums, listConfig.labelWidth, listConfig.allowExport, listId],
  )

  const press = async (button: ListButtonConfig, place: ButtonPlace, list: ListContext, row?: ListRow) => {
    const action = buttonAction(button, place)
    const conditions = conditionsOf(list.query)
    // What scripts see: the row, or the list's selection and conditions (no live component in a sandbox).
    const arg = place === 'row' && row ? plainRow(row) : { listId, selectedRows: selected.map(plainRow), conditions }
    try {
      switch (action.kind) {
        case 'external':
          window.open(action.url, '_blank', 'noopener,noreferrer')
          return
        case 'route':
          navigate(action.path)
          return
        case 'form': {
          const param = action.paramScript ? asRequestParam(await runScript(action.paramScript, [arg], { params: action.params })) : place === 'row' && row ? plainRow(row) : undefined
          setOpened({ formId: action.formId, requestParam: param })
          return
        }
        case 'script': {
          // The script answers what the list should do, as data (sandbox ButtonScriptAction).
          const ctx = place === 'row' && row ? { listId, row: plainRow(row), selectedRows: selected.map(plainRow), conditions } : arg
          let todo = await runButtonScript(action.script, ctx)
          // A script that asks for a text runs again with what the user typed (`_this.input`).
          if (todo.prompt) {
            const input = await promptText(feedback, todo.prompt)
            if (input === undefined) return
            todo = await runButtonScript(action.script, { ...(ctx as Record<string, unknown>), input })
          }
          if (todo.message) void message[todo.messageType ?? 'info'](todo.message)
          if (todo.openUrl) window.open(todo.openUrl, '_blank', 'noopener,noreferrer')
          if (todo.navigate) navigate(todo.navigate)
          if (todo.reload) list.reload()
          return
        }
        default:
          void message.error(action.reason)
      }
    } catch (e) {
      void message.error(e instanceof ScriptError ? e.message : e instanceof Error ? e.message : String(e))
    }
  }

  const render = Object.fromEntries(listConfig.fields.map((f) => [f.columnName, (row: ListRow) => fieldCell(f, row, enums)]))
  const buttons = !hideButtons
  return (
    <>
      <ListView<ListRow>
        source={source}
        className="custom-list"
        search={search}
        prepareRows={prepareRows}
        render={render}
        version={version}
        choose={choose}
        onChoose={(rows) => {
          setSelected(rows)
          onSelectionChange?.(rows)
        }}
        highlightCurrent={!choose}
        onRowDoubleClick={onRowDoubleClick}
        rowClassName={(row) => (row[SHOW_MARK] === false ? 'custom-list-dim' : undefined)}
        renderToolbar={buttons && config.toolbars.length ? (list) => config.toolbars.map((b) => <ListButton key={b.id} button={b} onClick={() => void press(b, 'toolbar', list)} />) : undefined}
        renderRowActions={
          buttons && config.handleColumns.length
            ? (row, list) => (
                <Space size={0} wrap>
                  {config.handleColumns.map((b) => (
                    <ListButton key={b.id} button={b} size="small" forceLink onClick={() => void press(b, 'row', list, row)} />
                  ))}
                </Space>
              )
            : undefined
        }
        rowActionsWidth={config.handleColumns.reduce((w, b) => w + (b.width || 60), 16)}
      />
      {opened && (
        <CustomFormHost formId={opened.formId} requestParam={opened.requestParam} asDialog onClose={() => setOpened(null)} onSubmitted={() => setVersion((v) => v + 1)} />
      )}
    </>
  )
}

function ListButton({ button, onClick, size, forceLink }: { button: ListButtonConfig; onClick: () => void; size?: 'small'; forceLink?: boolean }) {
  const look = buttonLook(button.viewType)
  const type = forceLink && look.type !== 'link' ? 'link' : look.type
  return (
    <Button type={type} danger={look.danger} size={size} icon={button.icon ? <MenuIcon name={button.icon} /> : undefined} onClick={onClick}>
      {button.name}
    </Button>
  )
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'boolean') return value ? tr('是') : tr('否')
  return String(value)
}

/** A cell of a custom list: the 启用/停用 tag, the enumeration's label, the formatter's text or the value. */
function fieldCell(f: ListFieldConfig, row: ListRow, enums: EnumCatalog): ReactNode {
  const value = row[f.columnName]
  if (f.hasAvailableTag && (value === true || value === false))
    return <Tag color={value ? 'green' : 'red'}>{enums.has('AVAILABLE') ? enums.label('AVAILABLE', value) : value ? tr('启用') : tr('停用')}</Tag>
  if (f.fixEnum && f.frontType && enums.has(f.frontType)) return enums.label(f.frontType, value) ?? cellText(value)
  const formatted = formattedCell(row, f.columnName)
  if (formatted && 'text' in formatted) return formatted.text
  if (formatted && 'error' in formatted)
    return (
      <Tooltip title={formatted.error}>
        <span className="custom-list-format-error">{cellText(value)}</span>
      </Tooltip>
    )
  return cellText(value)
}
