/**
 * The cron builder's model (spec 001 §3 "Cron state per unit", §4, §5 bounds, §9): one state per tab
 * (秒 分 时 天 月 年) with `cronEvery` choosing the mode, and the translation both ways between that
 * state and a seven-field Quartz expression. Pure, so the unit tests check every mode against croner's
 * fire times and the modal only renders it.
 *
 * Modes of 秒/分/时/月/年: 1 every (`*`), 2 from start every n (`a/n`), 3 specific values (`a,b`),
 * 4 range (`a-b`). The 天 tab holds the 13 day/week options (DAY_MODES); a week-based option makes
 * the day-of-month field `?`, a day-based one the day-of-week field `?`. Week days are 1-7 from Sunday.
 */

export interface UnitState {
  cronEvery: string
  incrementStart: number
  incrementIncrement: number
  rangeStart: number
  rangeEnd: number
  specificSpecific: number[]
}

export interface DayState extends UnitState {
  /** last `X` of the month (mode 8): week day 1-7 */
  cronLastSpecificDomDay: number
  /** `L-n` (mode 9) */
  cronDaysBeforeEomMinus: number
  /** `nW` (mode 10) */
  cronDaysNearestWeekday: number
}

export interface WeekState {
  incrementStart: number
  incrementIncrement: number
  rangeStart: number
  rangeEnd: number
  specificSpecific: number[]
  /** `X#n` (mode 11): week day and nth */
  cronNthDayDay: number
  cronNthDayNth: number
}

export interface CronState {
  second: UnitState
  minute: UnitState
  hour: UnitState
  day: DayState
  week: WeekState
  month: UnitState
  year: UnitState
}

export type SimpleUnit = 'second' | 'minute' | 'hour' | 'month' | 'year'

export interface Bound {
  min: number
  max: number
}

/**
 * Input bounds of spec 001 §5, as written there. Two of them let a user type what Quartz cannot run,
 * and the builder says so instead of narrowing the box: an interval of 0 (the month and hour intervals
 * start at 0) is named by intervalZero and refused; `L-31` is refused by the expression check (no month
 * has a day 31 days before its last). A month start of 0 means from the first month (a `*` start).
 */
export const CRON_BOUNDS: Record<SimpleUnit, { start: Bound; interval: Bound; range: Bound }> = {
  second: { start: { min: 0, max: 59 }, interval: { min: 1, max: 60 }, range: { min: 0, max: 59 } },
  minute: { start: { min: 0, max: 59 }, interval: { min: 1, max: 59 }, range: { min: 0, max: 59 } },
  hour: { start: { min: 0, max: 23 }, interval: { min: 0, max: 23 }, range: { min: 0, max: 23 } },
  month: { start: { min: 0, max: 12 }, interval: { min: 0, max: 12 }, range: { min: 1, max: 12 } },
  year: { start: { min: 2021, max: 2121 }, interval: { min: 1, max: 99 }, range: { min: 2021, max: 2121 } },
}
export const DAY_BOUND: Bound = { min: 1, max: 31 }
export const WEEK_BOUND: Bound = { min: 1, max: 7 }
export const NTH_BOUND: Bound = { min: 1, max: 5 }
export const BEFORE_EOM_BOUND: Bound = { min: 1, max: 31 }
/** Year options of 指定年: 100 entries from 2021 (spec 001 §9). */
export const YEAR_OPTIONS = Array.from({ length: 100 }, (_, i) => 2021 + i)

export const WEEK_DAY_NAMES = ['', '星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六']

/** The 13 options of the 天 tab; `week: true` makes the day-of-month field `?`. */
export const DAY_MODES: { value: string; label: string; week: boolean }[] = [
  { value: '1', label: '每天', week: false },
  { value: '2', label: '每周从星期X开始，每隔N天执行一次', week: true },
  { value: '3', label: '每月从X日开始，每隔N天执行一次', week: false },
  { value: '4', label: '指定星期几（可多选）', week: true },
  { value: '5', label: '指定日期（可多选）', week: false },
  { value: '6', label: '本月最后一天', week: false },
  { value: '7', label: '本月最后一个工作日', week: false },
  { value: '8', label: '本月最后一个星期X', week: true },
  { value: '9', label: '本月最后一天之前N天', week: false },
  { value: '10', label: '离X日最近的工作日（周一至周五）', week: false },
  { value: '11', label: '本月第N个星期X', week: true },
  { value: '12', label: '每周从星期X到星期Y', week: true },
  { value: '13', label: '每月从X日到Y日', week: false },
]

const unit = (start: number, inc: number, rs: number, re: number, spec: number[]): UnitState => ({
  cronEvery: '1',
  incrementStart: start,
  incrementIncrement: inc,
  rangeStart: rs,
  rangeEnd: re,
  specificSpecific: spec,
})

/**
 * What the modal shows when it opens without an expression: every day at 00:00:00 (`0 0 0 * * ?`).
 * Every second would be a job that runs 86,400 times a day if the user only meant to look.
 */
export function defaultCronState(): CronState {
  const at = (start: number, inc: number, rs: number, re: number): UnitState => ({ ...unit(start, inc, rs, re, [0]), cronEvery: '3' })
  return {
    second: at(0, 5, 0, 59),
    minute: at(0, 5, 0, 59),
    hour: at(0, 1, 0, 23),
    day: { ...unit(1, 1, 1, 31, [1]), cronLastSpecificDomDay: 1, cronDaysBeforeEomMinus: 1, cronDaysNearestWeekday: 1 },
    week: { incrementStart: 1, incrementIncrement: 1, rangeStart: 2, rangeEnd: 6, specificSpecific: [2], cronNthDayDay: 2, cronNthDayNth: 1 },
    month: unit(1, 1, 1, 12, [1]),
    year: unit(2021, 1, 2021, 2121, [2021]),
  }
}

const list = (values: number[]) => [...new Set(values)].sort((a, b) => a - b).join(',')

function simpleField(s: UnitState, min: number): string {
  switch (s.cronEvery) {
    case '2':
      // Only the month starts at 0, which is no month: from the first one.
      return `${s.incrementStart < min ? '*' : s.incrementStart}/${s.incrementIncrement}`
    case '3':
      return s.specificSpecific.length ? list(s.specificSpecific) : '*'
    case '4':
      return `${s.rangeStart}-${s.rangeEnd}`
    default:
      return '*'
  }
}

/** Day-of-month and day-of-week fields of the 天 tab's option. */
function dayFields(d: DayState, w: WeekState): [string, string] {
  switch (d.cronEvery) {
    case '2':
      return ['?', `${w.incrementStart}/${w.incrementIncrement}`]
    case '3':
      return [`${d.incrementStart}/${d.incrementIncrement}`, '?']
    case '4':
      return ['?', w.specificSpecific.length ? list(w.specificSpecific) : '*']
    case '5':
      return [d.specificSpecific.length ? list(d.specificSpecific) : '*', '?']
    case '6':
      return ['L', '?']
    case '7':
      return ['LW', '?']
    case '8':
      return ['?', `${d.cronLastSpecificDomDay}L`]
    case '9':
      return [`L-${d.cronDaysBeforeEomMinus}`, '?']
    case '10':
      return [`${d.cronDaysNearestWeekday}W`, '?']
    case '11':
      return ['?', `${w.cronNthDayDay}#${w.cronNthDayNth}`]
    case '12':
      return ['?', `${w.rangeStart}-${w.rangeEnd}`]
    case '13':
      return [`${d.rangeStart}-${d.rangeEnd}`, '?']
    default:
      return ['*', '?']
  }
}

/** A 指定 option left without a value, by what it names: the field would silently mean "every". */
export type EmptyChoice = SimpleUnit | 'weekday' | 'monthDay'

/** Every 指定 option that is chosen without a value (the modal refuses OK while there is one). */
export function emptyChoices(s: CronState): EmptyChoice[] {
  const out: EmptyChoice[] = []
  for (const u of ['second', 'minute', 'hour', 'month', 'year'] as const) if (s[u].cronEvery === '3' && !s[u].specificSpecific.length) out.push(u)
  if (s.day.cronEvery === '4' && !s.week.specificSpecific.length) out.push('weekday')
  if (s.day.cronEvery === '5' && !s.day.specificSpecific.length) out.push('monthDay')
  return out
}

/** Units on their 从…每 option with an interval of 0 (the bounds allow it; nothing would ever repeat). */
export function intervalZero(s: CronState): SimpleUnit[] {
  return (['second', 'minute', 'hour', 'month', 'year'] as const).filter((u) => s[u].cronEvery === '2' && s[u].incrementIncrement === 0)
}

/** The seven fields: 秒 分 时 日 月 周 年. */
export function cronFields(s: CronState): string[] {
  const [dom, dow] = dayFields(s.day, s.week)
  const f = (u: SimpleUnit) => simpleField(s[u], CRON_BOUNDS[u].range.min)
  return [f('second'), f('minute'), f('hour'), dom, f('month'), dow, f('year')]
}

/** The expression OK emits: the seven fields, or six when every year (Quartz's year is optional). */
export function cronExpression(s: CronState): string {
  const fields = cronFields(s)
  return (fields[6] === '*' ? fields.slice(0, 6) : fields).join(' ')
}

export class CronParseError extends Error {}

const WEEK_NAMES: Record<string, number> = { SUN: 1, MON: 2, TUE: 3, WED: 4, THU: 5, FRI: 6, SAT: 7 }
const MONTH_NAMES: Record<string, number> = { JAN: 1, FEB: 2, MAR: 3, APR: 4, MAY: 5, JUN: 6, JUL: 7, AUG: 8, SEP: 9, OCT: 10, NOV: 11, DEC: 12 }

function num(text: string, bound: Bound, names: Record<string, number> = {}): number {
  const upper = text.toUpperCase()
  const v = upper in names ? names[upper] : /^\d+$/.test(text) ? Number(text) : NaN
  if (!Number.isInteger(v) || v < bound.min || v > bound.max) throw new CronParseError(`“${text}”超出范围${bound.min}-${bound.max}`)
  return v
}

/** One simple field into a unit state (mode and the values of that mode; the others keep `base`). */
function parseSimple(field: string, base: UnitState, bounds: { start: Bound; interval: Bound; range: Bound }, names?: Record<string, number>): UnitState {
  if (field === '*' || field === '?') return { ...base, cronEvery: '1' }
  let m = /^(\*|\w+)\/(\d+)$/.exec(field)
  if (m) {
    const start = m[1] === '*' ? bounds.start.min : num(m[1], bounds.start, names)
    return { ...base, cronEvery: '2', incrementStart: start, incrementIncrement: num(m[2], bounds.interval) }
  }
  m = /^(\w+)-(\w+)$/.exec(field)
  if (m) return { ...base, cronEvery: '4', rangeStart: num(m[1], bounds.range, names), rangeEnd: num(m[2], bounds.range, names) }
  if (/^\w+(,\w+)*$/.test(field))
    return { ...base, cronEvery: '3', specificSpecific: field.split(',').map((v) => num(v, bounds.range, names)) }
  throw new CronParseError(`无法反解析“${field}”`)
}

/**
 * 反解析到UI: a Quartz expression into the builder's state. 6 fields mean every year. Throws
 * CronParseError (a Chinese message) for what the builder cannot show.
 */
export function parseCronState(expression: string): CronState {
  const fields = expression.trim().split(/\s+/).filter(Boolean)
  if (fields.length !== 6 && fields.length !== 7) throw new CronParseError('Cron表达式应为6或7个字段')
  const [sec, min, hour, dom, month, dow, year = '*'] = fields
  const base = defaultCronState()
  const state: CronState = {
    ...base,
    second: parseSimple(sec, base.second, CRON_BOUNDS.second),
    minute: parseSimple(min, base.minute, CRON_BOUNDS.minute),
    hour: parseSimple(hour, base.hour, CRON_BOUNDS.hour),
    month: parseSimple(month, base.month, CRON_BOUNDS.month, MONTH_NAMES),
    year: parseSimple(year, base.year, CRON_BOUNDS.year),
  }
  const day = { ...base.day }
  const week = { ...base.week }
  if ((dom === '?') === (dow === '?')) throw new CronParseError('日和周必须有且只有一个为“?”')
  let m: RegExpExecArray | null
  if (dom === '?') {
    if (dow === '*') day.cronEvery = '1'
    else if ((m = /^(\w+)\/(\d+)$/.exec(dow))) {
      day.cronEvery = '2'
      week.incrementStart = num(m[1], WEEK_BOUND, WEEK_NAMES)
      week.incrementIncrement = num(m[2], WEEK_BOUND)
    } else if ((m = /^(\w+)L$/.exec(dow))) {
      day.cronEvery = '8'
      day.cronLastSpecificDomDay = num(m[1], WEEK_BOUND, WEEK_NAMES)
    } else if ((m = /^(\w+)#(\d)$/.exec(dow))) {
      day.cronEvery = '11'
      week.cronNthDayDay = num(m[1], WEEK_BOUND, WEEK_NAMES)
      week.cronNthDayNth = num(m[2], NTH_BOUND)
    } else if ((m = /^(\w+)-(\w+)$/.exec(dow))) {
      day.cronEvery = '12'
      week.rangeStart = num(m[1], WEEK_BOUND, WEEK_NAMES)
      week.rangeEnd = num(m[2], WEEK_BOUND, WEEK_NAMES)
    } else if (/^\w+(,\w+)*$/.test(dow)) {
      day.cronEvery = '4'
      week.specificSpecific = dow.split(',').map((v) => num(v, WEEK_BOUND, WEEK_NAMES))
    } else throw new CronParseError(`无法反解析“${dow}”`)
  } else {
    if (dom === '*') day.cronEvery = '1'
    else if (dom === 'L') day.cronEvery = '6'
    else if (dom === 'LW') day.cronEvery = '7'
    else if ((m = /^L-(\d+)$/.exec(dom))) {
      day.cronEvery = '9'
      day.cronDaysBeforeEomMinus = num(m[1], BEFORE_EOM_BOUND)
    } else if ((m = /^(\d+)W$/.exec(dom))) {
      day.cronEvery = '10'
      day.cronDaysNearestWeekday = num(m[1], DAY_BOUND)
    } else if ((m = /^(\*|\d+)\/(\d+)$/.exec(dom))) {
      day.cronEvery = '3'
      day.incrementStart = m[1] === '*' ? 1 : num(m[1], DAY_BOUND)
      day.incrementIncrement = num(m[2], DAY_BOUND)
    } else if ((m = /^(\d+)-(\d+)$/.exec(dom))) {
      day.cronEvery = '13'
      day.rangeStart = num(m[1], DAY_BOUND)
      day.rangeEnd = num(m[2], DAY_BOUND)
    } else if (/^\d+(,\d+)*$/.test(dom)) {
      day.cronEvery = '5'
      day.specificSpecific = dom.split(',').map((v) => num(v, DAY_BOUND))
    } else throw new CronParseError(`无法反解析“${dom}”`)
  }
  return { ...state, day, week }
}
