import type { FormSchemaNode } from './formily-schema.js'
import { term, tr } from '../i18n/use-tr.js'
import dayjs from 'dayjs'
import { deriveRules } from '../../shared/metadata/derive.js'

/**
 * The form designer's model: a flat list of fields laid on a 24-column grid, and its two-way mapping
 * to the custom form's `formConfig` (Formily JSON schema: a FormGrid of 24 columns whose FormItems
 * carry their `gridSpan`). Pure, so it is unit-tested apart from the screen.
 */

export interface PaletteEntry {
  component: string
  label: string
  /** Formily schema type of the value */
  type: 'string' | 'number' | 'boolean' | 'array'
  /** offers an options list (value/label) */
  options?: boolean
  /** which rules the property panel offers: a text's pattern and length, or a date's format, default and range */
  rules?: 'text' | 'date'
}

/** What an admin can place: the components a stored custom form renders (formily-components.tsx). */
export const PALETTE: PaletteEntry[] = [
  { component: 'Input', label: term('单行文本'), type: 'string', rules: 'text' },
  { component: 'Input.TextArea', label: term('多行文本'), type: 'string', rules: 'text' },
  { component: 'Password', label: term('密码'), type: 'string', rules: 'text' },
  { component: 'NumberPicker', label: term('数字'), type: 'number' },
  { component: 'Select', label: term('下拉选择'), type: 'string', options: true },
  { component: 'Radio.Group', label: term('单选'), type: 'string', options: true },
  { component: 'Checkbox.Group', label: term('多选'), type: 'array', options: true },
  { component: 'Switch', label: term('开关'), type: 'boolean' },
  { component: 'DatePicker', label: term('日期'), type: 'string', rules: 'date' },
  { component: 'DatePicker.RangePicker', label: term('日期范围'), type: 'array', rules: 'date' },
  { component: 'TimePicker', label: term('时间'), type: 'string' },
  { component: 'DataDicSelect', label: term('数据字典'), type: 'string' },
  { component: 'CustomSelector', label: term('自定义选择器'), type: 'string' },
  { component: 'VideoUpload', label: term('视频'), type: 'string' },
]

export const paletteOf = (component: string): PaletteEntry | undefined => PALETTE.find((p) => p.component === component)

export interface FieldOption {
  label: string
  value: string
}

export interface DesignerField {
  /** the value's property name in the submitted form data */
  name: string
  title: string
  component: string
  /** columns of 24 */
  span: number
  required: boolean
  placeholder: string
  /** a regular expression the text must match, with its message */
  pattern: string
  patternMessage: string
  minLength: number | null
  maxLength: number | null
  options: FieldOption[]
  /** DataDicSelect: the dictionary's code */
  dicCode: string
  /** CustomSelector: the selector's id */
  selectorId: string
  /** dates: the display and submitted format ('' = the picker's own) */
  dateFormat: string
  /** dates: a date-time picker */
  showTime: boolean
  /** a single date: starts with today */
  defaultToday: boolean
  /** dates: the earliest and latest day that can be chosen, YYYY-MM-DD ('' = open) */
  minDate: string
  maxDate: string
}

/** The formats a date field offers, by whether it holds a time. */
export const DATE_FORMATS = {
  date: ['YYYY-MM-DD', 'YYYY/MM/DD', 'YYYY年MM月DD日'], // i18n-ignore: a format pattern (the Chinese date style a user may choose), not a text
  dateTime: ['YYYY-MM-DD HH:mm:ss', 'YYYY-MM-DD HH:mm', 'YYYY/MM/DD HH:mm'],
} as const

export const GRID_COLUMNS = 24
const GRID_KEY = 'grid'
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/

/**
 * The name a label proposes: its pinyin in camelCase ASCII (客户名称 -> keHuMingCheng), made unique
 * among `taken` by a number (keHuMingCheng2); `field` when the label gives no letter to start with.
 */
export function nameFromTitle(title: string, taken: readonly string[]): string {
  let base = deriveRules.camelName(title).slice(0, 60)
  if (!/^[A-Za-z]/.test(base)) base = `field${base.charAt(0).toUpperCase()}${base.slice(1)}`.slice(0, 60)
  if (!taken.includes(base)) return base
  let n = 2
  while (taken.includes(`${base}${n}`)) n += 1
  return `${base}${n}`
}

/**
 * A field's new title, and its name following the title while the name is still the one the previous
 * title proposed (a name the admin typed stays theirs).
 */
export function retitle(fields: readonly DesignerField[], name: string, title: string): DesignerField[] {
  const others = fields.filter((f) => f.name !== name).map((f) => f.name)
  return fields.map((f) => {
    if (f.name !== name) return f
    const base = nameFromTitle(f.title, [])
    const follows = f.name === base || (f.name.startsWith(base) && /^\d+$/.test(f.name.slice(base.length)))
    return { ...f, title, name: follows ? nameFromTitle(title, others) : f.name }
  })
}

export function newField(component: string, taken: readonly string[]): DesignerField {
  const entry = paletteOf(component)
  const title = entry ? tr(entry.label) : component
  return {
    name: nameFromTitle(title, taken),
    title,
    component,
    span: 12,
    required: false,
    placeholder: '',
    pattern: '',
    patternMessage: '',
    minLength: null,
    maxLength: null,
    options: entry?.options ? [{ label: tr('选项1'), value: '1' }, { label: tr('选项2'), value: '2' }] : [],
    dicCode: '',
    selectorId: '',
    dateFormat: '',
    showTime: false,
    defaultToday: false,
    minDate: '',
    maxDate: '',
  }
}

/** What is wrong with the fields before they can be saved (names unique and usable, options complete). */
export function fieldProblems(fields: readonly DesignerField[]): string[] {
  const problems: string[] = []
  const seen = new Set<string>()
  fields.forEach((f, i) => {
    const where = tr(`第${i + 1}个字段（${f.title || f.name}）`)
    if (!NAME.test(f.name)) problems.push(tr(`${where}：字段名只能包含字母、数字和下划线，且不能以数字开头`))
    else if (seen.has(f.name)) problems.push(tr(`${where}：字段名【${f.name}】重复`))
    seen.add(f.name)
    if (!f.title.trim()) problems.push(tr(`${where}：请输入标题`))
    if (f.pattern) {
      try {
        new RegExp(f.pattern)
      } catch {
        problems.push(tr(`${where}：校验正则不正确`))
      }
    }
    if (paletteOf(f.component)?.options && !f.options.length) problems.push(tr(`${where}：请添加选项`))
    if (f.options.some((o) => !o.label.trim() || !o.value.trim())) problems.push(tr(`${where}：选项的显示值和值不能为空`))
    if (f.component === 'DataDicSelect' && !f.dicCode) problems.push(tr(`${where}：请选择数据字典`))
    if (f.component === 'CustomSelector' && !f.selectorId) problems.push(tr(`${where}：请选择自定义选择器`))
    if (f.minDate && f.maxDate && f.minDate > f.maxDate) problems.push(tr(`${where}：最早日期不能晚于最晚日期`))
  })
  return problems
}

/** The first day of `value` (one date or a range) outside [minDate, maxDate], as the refusal to show. */
export function outsideBounds(value: unknown, minDate?: string, maxDate?: string): string | undefined {
  for (const v of Array.isArray(value) ? value : [value]) {
    if (v === undefined || v === null || v === '' || !dayjs(v as string).isValid()) continue
    const d = dayjs(v as string).format('YYYY-MM-DD')
    if (minDate && d < minDate) return tr(`日期不能早于${minDate}`)
    if (maxDate && d > maxDate) return tr(`日期不能晚于${maxDate}`)
  }
  return undefined
}

/** The Formily schema of the designed form (what `formConfig` stores). */
export function toFormSchema(fields: readonly DesignerField[]): FormSchemaNode {
  const properties: Record<string, FormSchemaNode> = {}
  fields.forEach((f, i) => {
    const entry = paletteOf(f.component)
    const props: Record<string, unknown> = { 'aria-label': f.title }
    if (f.placeholder) props.placeholder = f.placeholder
    if (f.component === 'DataDicSelect') props.dicCode = f.dicCode
    if (f.component === 'CustomSelector') props.selectorId = f.selectorId
    if (entry?.rules === 'date') {
      if (f.dateFormat) props.format = f.dateFormat
      if (f.showTime) props.showTime = true
      if (f.defaultToday && f.component === 'DatePicker') props.defaultToday = true
      if (f.minDate) props.minDate = f.minDate
      if (f.maxDate) props.maxDate = f.maxDate
    }
    const node: FormSchemaNode = {
      type: entry?.type ?? 'string',
      title: f.title,
      'x-index': i,
      'x-decorator': 'FormItem',
      'x-decorator-props': { gridSpan: clampSpan(f.span) },
      'x-component': f.component,
      'x-component-props': props,
    }
    if (f.required) node.required = true
    if (entry?.options) node.enum = f.options.map((o) => ({ label: o.label, value: o.value }))
    const rules: Record<string, unknown>[] = []
    if (f.pattern) rules.push({ pattern: f.pattern, message: f.patternMessage || tr(`${f.title}格式不正确`) })
    if (f.minLength !== null) rules.push({ minLength: f.minLength, message: tr(`${f.title}不能少于${f.minLength}个字符`) })
    if (f.maxLength !== null) rules.push({ maxLength: f.maxLength, message: tr(`${f.title}不能超过${f.maxLength}个字符`) })
    if (rules.length) node['x-validator'] = rules
    properties[f.name] = node
  })
  return {
    type: 'object',
    properties: {
      [GRID_KEY]: {
        type: 'void',
        'x-component': 'FormGrid',
        'x-component-props': { minColumns: GRID_COLUMNS, maxColumns: GRID_COLUMNS, columnGap: 12 },
        properties,
      },
    },
  }
}

const clampSpan = (n: unknown) => Math.min(GRID_COLUMNS, Math.max(1, Math.round(Number(n) || GRID_COLUMNS)))
const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v))
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {})

/**
 * The fields of a stored form: the designer's own grid, or the plain properties of a form written by
 * hand (each field becomes a full-width cell; components outside the palette are kept as they are).
 */
export function fromFormSchema(input: unknown): DesignerField[] {
  let schema: unknown = input
  if (typeof input === 'string') {
    try {
      schema = JSON.parse(input)
    } catch {
      return []
    }
  }
  const root = obj(obj(schema).properties)
  const grid = Object.values(root).find((n) => obj(n)['x-component'] === 'FormGrid')
  const props = grid ? obj(obj(grid).properties) : root
  return Object.entries(props)
    .filter(([, n]) => typeof obj(n)['x-component'] === 'string' && obj(n)['x-component'] !== 'FormGrid')
    .sort(([, a], [, b]) => Number(obj(a)['x-index'] ?? 0) - Number(obj(b)['x-index'] ?? 0))
    .map(([name, n]) => {
      const node = obj(n)
      const cp = obj(node['x-component-props'])
      const rules = Array.isArray(node['x-validator']) ? node['x-validator'].map(obj) : []
      const patternRule = rules.find((r) => typeof r.pattern === 'string')
      const minRule = rules.find((r) => typeof r.minLength === 'number')
      const maxRule = rules.find((r) => typeof r.maxLength === 'number')
      return {
        name,
        title: str(node.title),
        component: str(node['x-component']),
        span: clampSpan(obj(node['x-decorator-props']).gridSpan ?? GRID_COLUMNS),
        required: node.required === true,
        placeholder: str(cp.placeholder),
        pattern: patternRule ? str(patternRule.pattern) : '',
        patternMessage: patternRule ? str(patternRule.message) : '',
        minLength: minRule ? Number(minRule.minLength) : null,
        maxLength: maxRule ? Number(maxRule.maxLength) : null,
        options: Array.isArray(node.enum) ? node.enum.map((o) => (o && typeof o === 'object' ? { label: str(obj(o).label), value: str(obj(o).value) } : { label: str(o), value: str(o) })) : [],
        dicCode: str(cp.dicCode),
        selectorId: str(cp.selectorId),
        dateFormat: str(cp.format),
        showTime: cp.showTime === true,
        defaultToday: cp.defaultToday === true,
        minDate: str(cp.minDate),
        maxDate: str(cp.maxDate),
      }
    })
}

/** Moves the field at `from` to `to` (an index in the list after removal). */
export function moveField<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list]
  const [item] = next.splice(from, 1)
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item)
  return next
}
