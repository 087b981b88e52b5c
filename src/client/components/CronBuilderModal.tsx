import { useEffect, useMemo, useState, type ReactNode } from 'react'
import { Alert, Button, Checkbox, Input, InputNumber, Modal, Radio, Select, Space, Table, Tabs } from 'antd'
import dayjs from 'dayjs'
import {
  BEFORE_EOM_BOUND,
  CRON_BOUNDS,
  CronParseError,
  DAY_BOUND,
  DAY_MODES,
  NTH_BOUND,
  WEEK_BOUND,
  WEEK_DAY_NAMES,
  YEAR_OPTIONS,
  cronExpression,
  cronFields,
  defaultCronState,
  emptyChoices,
  intervalZero,
  parseCronState,
  type Bound,
  type CronState,
  type EmptyChoice,
  type SimpleUnit,
  type UnitState,
} from '../../shared/cron/cron-builder.js'
import { nextFireTimes } from '../../shared/cron/quartz-cron.js'
import { term, useTr } from '../i18n/use-tr.js'

export interface CronBuilderModalProps {
  open: boolean
  /** The expression to parse into the tabs; empty opens the defaults. */
  value?: string
  onOk: (expression: string) => void
  onClose: () => void
}

const UNIT_TEXT: Record<SimpleUnit, { name: string; every: string }> = {
  second: { name: term('秒'), every: term('每秒') },
  minute: { name: term('分钟'), every: term('每分钟') },
  hour: { name: term('小时'), every: term('每小时') },
  month: { name: term('月'), every: term('每月') },
  year: { name: term('年'), every: term('每年') },
}

const range = (b: Bound) => Array.from({ length: b.max - b.min + 1 }, (_, i) => b.min + i)

function Num({ value, bound, onChange, label }: { value: number; bound: Bound; onChange: (v: number) => void; label: string }) {
  return (
    <InputNumber
      size="small"
      aria-label={label}
      min={bound.min}
      max={bound.max}
      precision={0}
      value={value}
      style={{ width: 80 }}
      onChange={(v) => typeof v === 'number' && onChange(v)}
    />
  )
}

const rowStyle = { display: 'flex', alignItems: 'center', flexWrap: 'wrap' as const, gap: 4, minHeight: 34 }

/**
 * One option of a tab: the radio's label holds only its leading words, the inputs follow beside it. A
 * select inside a `<label>` would have every click on it activate the radio too (which focuses the radio
 * and closes the dropdown at once).
 */
function ModeRow({ value, lead, children }: { value: string; lead: ReactNode; children?: ReactNode }) {
  return (
    <div style={rowStyle}>
      <Radio value={value}>{lead}</Radio>
      {children}
    </div>
  )
}

/** 秒, 分, 时, 月 and 年: every, from … every …, specific values, a range. */
function SimpleTab({ unit, state, onChange }: { unit: SimpleUnit; state: UnitState; onChange: (s: UnitState) => void }) {
  const tr = useTr()
  const b = CRON_BOUNDS[unit]
  const t = UNIT_TEXT[unit]
  const set = (patch: Partial<UnitState>) => onChange({ ...state, ...patch })
  const values = unit === 'year' ? YEAR_OPTIONS : range(b.range)
  return (
    <Radio.Group value={state.cronEvery} onChange={(e) => set({ cronEvery: e.target.value as string })} style={{ width: '100%' }}>
      <Space direction="vertical" size={0} style={{ width: '100%' }}>
        <ModeRow value="1" lead={tr(t.every)} />
        <ModeRow value="2" lead={tr('从第')}>
          <Num label={tr(`${t.name}开始`)} value={state.incrementStart} bound={b.start} onChange={(v) => set({ incrementStart: v, cronEvery: '2' })} /> {tr(t.name)}
          {tr('开始，每')}
          <Num label={tr(`${t.name}间隔`)} value={state.incrementIncrement} bound={b.interval} onChange={(v) => set({ incrementIncrement: v, cronEvery: '2' })} /> {tr(t.name)}
          {tr('执行一次')}
        </ModeRow>
        <ModeRow value="3" lead={tr(`指定${t.name}（可多选）`)}>
          <Select
            mode="multiple"
            size="small"
            aria-label={tr(`指定${t.name}`)}
            style={{ minWidth: 360 }}
            value={state.specificSpecific}
            options={values.map((v) => ({ value: v, label: String(v) }))}
            onChange={(v: number[]) => set({ specificSpecific: v, cronEvery: '3' })}
          />
        </ModeRow>
        <ModeRow value="4" lead={tr('周期从')}>
          <Num label={tr(`${t.name}从`)} value={state.rangeStart} bound={b.range} onChange={(v) => set({ rangeStart: v, cronEvery: '4' })} /> {tr('到')}
          <Num label={tr(`${t.name}到`)} value={state.rangeEnd} bound={b.range} onChange={(v) => set({ rangeEnd: v, cronEvery: '4' })} /> {tr(t.name)}
        </ModeRow>
      </Space>
    </Radio.Group>
  )
}

/** 星期日…星期六 in the chosen language. */
const weekOptionsOf = (tr: (text: string) => string) => range(WEEK_BOUND).map((v) => ({ value: v, label: tr(WEEK_DAY_NAMES[v]) }))

function WeekSelect({ value, onChange, label }: { value: number; onChange: (v: number) => void; label: string }) {
  const tr = useTr()
  const weekOptions = weekOptionsOf(tr)
  return (
    <Select size="small" aria-label={label} style={{ width: 100 }} value={value} options={weekOptions} onChange={onChange} />
  )
}

/** 天: the 13 day-of-month / day-of-week options; a week option makes 日 `?`, a day option makes 周 `?`. */
function DayTab({ state, onChange }: { state: CronState; onChange: (s: CronState) => void }) {
  const tr = useTr()
  const { day, week } = state
  const setDay = (patch: Partial<CronState['day']>, mode: string) => onChange({ ...state, day: { ...day, ...patch, cronEvery: mode } })
  const setWeek = (patch: Partial<CronState['week']>, mode: string) => onChange({ ...state, week: { ...week, ...patch }, day: { ...day, cronEvery: mode } })
  /** Each option with inputs: the words that lead it (the radio's label) and the inputs that follow. */
  const body: Record<string, [string, ReactNode]> = {
    '2': [
      term('每周从'),
      <>
        <WeekSelect label={tr('周开始')} value={week.incrementStart} onChange={(v) => setWeek({ incrementStart: v }, '2')} /> {tr('开始，每隔')}
        <Num label={tr('周间隔')} value={week.incrementIncrement} bound={WEEK_BOUND} onChange={(v) => setWeek({ incrementIncrement: v }, '2')} /> {tr('天执行一次')}
      </>,
    ],
    '3': [
      term('每月从'),
      <>
        <Num label={tr('日开始')} value={day.incrementStart} bound={DAY_BOUND} onChange={(v) => setDay({ incrementStart: v }, '3')} /> {tr('日开始，每隔')}
        <Num label={tr('日间隔')} value={day.incrementIncrement} bound={DAY_BOUND} onChange={(v) => setDay({ incrementIncrement: v }, '3')} /> {tr('天执行一次')}
      </>,
    ],
    '4': [
      term('指定星期几（可多选）'),
      <Checkbox.Group value={week.specificSpecific} options={weekOptionsOf(tr)} onChange={(v) => setWeek({ specificSpecific: v as number[] }, '4')} />,
    ],
    '5': [
      term('指定日期（可多选）'),
      <Select
        mode="multiple"
        size="small"
        aria-label={tr('指定日期')}
        style={{ minWidth: 360 }}
        value={day.specificSpecific}
        options={range(DAY_BOUND).map((v) => ({ value: v, label: String(v) }))}
        onChange={(v: number[]) => setDay({ specificSpecific: v }, '5')}
      />,
    ],
    '8': [term('本月最后一个'), <WeekSelect label={tr('最后一个星期')} value={day.cronLastSpecificDomDay} onChange={(v) => setDay({ cronLastSpecificDomDay: v }, '8')} />],
    '9': [
      term('本月最后一天之前'),
      <>
        <Num label={tr('月末前天数')} value={day.cronDaysBeforeEomMinus} bound={BEFORE_EOM_BOUND} onChange={(v) => setDay({ cronDaysBeforeEomMinus: v }, '9')} /> {tr('天')}
      </>,
    ],
    '10': [
      term('离'),
      <>
        <Num label={tr('最近工作日')} value={day.cronDaysNearestWeekday} bound={DAY_BOUND} onChange={(v) => setDay({ cronDaysNearestWeekday: v }, '10')} /> {tr('日最近的工作日（周一至周五）')}
      </>,
    ],
    '11': [
      term('本月第'),
      <>
        <Num label={tr('第几个')} value={week.cronNthDayNth} bound={NTH_BOUND} onChange={(v) => setWeek({ cronNthDayNth: v }, '11')} /> {tr('个')}
        <WeekSelect label={tr('第几个星期')} value={week.cronNthDayDay} onChange={(v) => setWeek({ cronNthDayDay: v }, '11')} />
      </>,
    ],
    '12': [
      term('每周从'),
      <>
        <WeekSelect label={tr('周从')} value={week.rangeStart} onChange={(v) => setWeek({ rangeStart: v }, '12')} /> {tr('到')}
        <WeekSelect label={tr('周到')} value={week.rangeEnd} onChange={(v) => setWeek({ rangeEnd: v }, '12')} />
      </>,
    ],
    '13': [
      term('每月从'),
      <>
        <Num label={tr('日从')} value={day.rangeStart} bound={DAY_BOUND} onChange={(v) => setDay({ rangeStart: v }, '13')} /> {tr('日到')}
        <Num label={tr('日到')} value={day.rangeEnd} bound={DAY_BOUND} onChange={(v) => setDay({ rangeEnd: v }, '13')} /> {tr('日')}
      </>,
    ],
  }
  return (
    <Radio.Group value={day.cronEvery} onChange={(e) => setDay({}, e.target.value as string)} style={{ width: '100%' }}>
      <Space direction="vertical" size={0} style={{ width: '100%' }}>
        {DAY_MODES.map((m) => {
          const [lead, rest] = body[m.value] ?? [m.label, null]
          return (
            <ModeRow key={m.value} value={m.value} lead={tr(lead)}>
              {rest}
            </ModeRow>
          )
        })}
      </Space>
    </Radio.Group>
  )
}

/** What an empty 指定 option names in its message. */
const CHOICE_NAMES: Record<EmptyChoice, string> = {
  second: term('秒'),
  minute: term('分钟'),
  hour: term('小时'),
  month: term('月'),
  year: term('年'),
  weekday: term('星期'),
  monthDay: term('日期'),
}

const FIELD_TITLES = [term('秒'), term('分'), term('时'), term('日'), term('月'), term('周'), term('年')]

/**
 * The modal 'Cron表达式' (spec 001 §2-5, §9): tabs 秒 分 时 天 月 年 over the builder state
 * (src/shared/cron/cron-builder.ts), the seven fields, 反解析到UI from a pasted expression, and the
 * next five fire times from the same croner adapter the server schedules with.
 */
export default function CronBuilderModal({ open, value, onOk, onClose }: CronBuilderModalProps) {
  const tr = useTr()
  const [state, setState] = useState<CronState>(defaultCronState)
  const [reverse, setReverse] = useState('')
  const [parseError, setParseError] = useState<string | null>(null)

  useEffect(() => {
    if (!open) return
    setParseError(null)
    if (!value) {
      setState(defaultCronState())
      setReverse('')
      return
    }
    setReverse(value)
    try {
      setState(parseCronState(value))
    } catch (error) {
      setState(defaultCronState())
      setParseError(error instanceof CronParseError ? error.message : String(error))
    }
  }, [open, value])

  const fields = cronFields(state)
  const empty = emptyChoices(state)
  const zero = intervalZero(state)
  const expression = cronExpression(state)
  const preview = useMemo(() => {
    try {
      const times = nextFireTimes(expression, 5)
      return { times: times.map((d) => dayjs(d).format('YYYY-MM-DD HH:mm:ss')), error: null }
    } catch (error) {
      return { times: [], error: error instanceof Error ? error.message : String(error) }
    }
  }, [expression])

  const applyReverse = () => {
    try {
      setState(parseCronState(reverse))
      setParseError(null)
    } catch (error) {
      setParseError(error instanceof Error ? error.message : String(error))
    }
  }

  const unitTab = (unit: SimpleUnit) => <SimpleTab unit={unit} state={state[unit]} onChange={(s) => setState({ ...state, [unit]: s })} />

  return (
    <Modal
      title={tr('Cron表达式')}
      open={open}
      width={1000}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>
          {tr('关闭')}
        </Button>,
        <Button key="ok" type="primary" disabled={!!preview.error || empty.length > 0 || zero.length > 0} onClick={() => onOk(expression)}>
          {tr('确定')}
        </Button>,
      ]}
    >
      <Tabs
        items={[
          { key: 'second', label: tr('秒'), children: unitTab('second') },
          { key: 'minute', label: tr('分'), children: unitTab('minute') },
          { key: 'hour', label: tr('时'), children: unitTab('hour') },
          { key: 'day', label: tr('天'), children: <DayTab state={state} onChange={setState} /> },
          { key: 'month', label: tr('月'), children: unitTab('month') },
          { key: 'year', label: tr('年'), children: unitTab('year') },
        ]}
      />
      <Table
        size="small"
        bordered
        pagination={false}
        rowKey="key"
        style={{ marginTop: 12 }}
        className="cron-fields"
        columns={FIELD_TITLES.map((title, i) => ({ title: tr(title), dataIndex: String(i), align: 'center' as const }))}
        dataSource={[{ key: 'fields', ...Object.fromEntries(fields.map((f, i) => [String(i), f])) }]}
      />
      <Space.Compact style={{ width: '100%', marginTop: 12 }}>
        <Input aria-label={tr('Cron表达式')} value={reverse} placeholder={tr('粘贴Cron表达式')} onChange={(e) => setReverse(e.target.value)} onPressEnter={applyReverse} />
        <Button onClick={applyReverse}>{tr('反解析到UI')}</Button>
      </Space.Compact>
      {empty.map((choice) => (
        <Alert key={choice} type="error" showIcon style={{ marginTop: 8 }} message={tr(`请至少选择一个${CHOICE_NAMES[choice]}`)} />
      ))}
      {zero.map((unit) => (
        <Alert key={unit} type="error" showIcon style={{ marginTop: 8 }} message={tr(`${UNIT_TEXT[unit].name}间隔不能为0`)} />
      ))}
      {parseError && <Alert type="error" showIcon style={{ marginTop: 8 }} message={tr(parseError)} />}
      <div style={{ marginTop: 12 }} className="cron-next-times">
        <div>
          {tr('表达式：')}<code data-testid="cron-expression">{expression}</code>
        </div>
        <div>{tr('最近5次运行时间：')}</div>
        {preview.error ? (
          <Alert type="warning" showIcon message={tr(preview.error)} />
        ) : preview.times.length ? (
          <ol style={{ margin: 0 }}>
            {preview.times.map((time) => (
              <li key={time}>{time}</li>
            ))}
          </ol>
        ) : (
          <div>{tr('没有下一次执行时间')}</div>
        )}
      </div>
    </Modal>
  )
}
