import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import {
  BEFORE_EOM_BOUND,
  CRON_BOUNDS,
  CronParseError,
  DAY_BOUND,
  DAY_MODES,
  NTH_BOUND,
  WEEK_BOUND,
  YEAR_OPTIONS,
  intervalZero,
  cronExpression,
  cronFields,
  defaultCronState,
  emptyChoices,
  parseCronState,
  type CronState,
} from '../../src/shared/cron/cron-builder.js'
import { nextFireTimes, quartzCronError } from '../../src/shared/cron/quartz-cron.js'

/** Thursday 2026-11-26 05:00:00, local time (the builder and the scheduler both work in local time). */
const FROM = new Date(2026, 10, 26, 5, 0, 0)
const fires = (expression: string, n = 3) => nextFireTimes(expression, n, FROM).map((d) => dayjs(d).format('YYYY-MM-DD HH:mm:ss'))

type Edit = (s: CronState) => void
/** Every second of every day: each unit on its 每 option (the modal's own default is daily at 00:00:00). */
const every = () => {
  const s = defaultCronState()
  for (const u of ['second', 'minute', 'hour'] as const) s[u] = { ...s[u], cronEvery: '1' }
  return s
}
/** A state at 09:00:00 of every day, changed by `edit`. */
const at9 = (edit: Edit = () => {}) => {
  const s = every()
  s.second = { ...s.second, cronEvery: '3', specificSpecific: [0] }
  s.minute = { ...s.minute, cronEvery: '3', specificSpecific: [0] }
  s.hour = { ...s.hour, cronEvery: '3', specificSpecific: [9] }
  edit(s)
  return s
}
const build = (edit: Edit) => {
  const s = every()
  edit(s)
  return s
}

/** Every mode of every tab: the expression it writes and the fire times croner gives for it. */
const CASES: [string, CronState, string, string[]][] = [
  ['秒 every', every(), '* * * * * ?', ['2026-11-26 05:00:01', '2026-11-26 05:00:02', '2026-11-26 05:00:03']],
  ['秒 from 0 every 5', build((s) => (s.second = { ...s.second, cronEvery: '2', incrementStart: 0, incrementIncrement: 5 })), '0/5 * * * * ?', ['2026-11-26 05:00:05', '2026-11-26 05:00:10', '2026-11-26 05:00:15']],
  ['秒 specific', build((s) => (s.second = { ...s.second, cronEvery: '3', specificSpecific: [30, 10] })), '10,30 * * * * ?', ['2026-11-26 05:00:10', '2026-11-26 05:00:30', '2026-11-26 05:01:10']],
  ['秒 range', build((s) => (s.second = { ...s.second, cronEvery: '4', rangeStart: 5, rangeEnd: 7 })), '5-7 * * * * ?', ['2026-11-26 05:00:05', '2026-11-26 05:00:06', '2026-11-26 05:00:07']],
  [
    '分 from 0 every 5',
    build((s) => {
      s.second = { ...s.second, cronEvery: '3', specificSpecific: [0] }
      s.minute = { ...s.minute, cronEvery: '2', incrementStart: 0, incrementIncrement: 5 }
    }),
    '0 0/5 * * * ?',
    ['2026-11-26 05:05:00', '2026-11-26 05:10:00', '2026-11-26 05:15:00'],
  ],
  [
    '分 range',
    build((s) => {
      s.second = { ...s.second, cronEvery: '3', specificSpecific: [0] }
      s.minute = { ...s.minute, cronEvery: '4', rangeStart: 10, rangeEnd: 12 }
    }),
    '0 10-12 * * * ?',
    ['2026-11-26 05:10:00', '2026-11-26 05:11:00', '2026-11-26 05:12:00'],
  ],
  ['时 specific', at9((s) => (s.hour = { ...s.hour, cronEvery: '3', specificSpecific: [20, 8] })), '0 0 8,20 * * ?', ['2026-11-26 08:00:00', '2026-11-26 20:00:00', '2026-11-27 08:00:00']],
  ['时 from 1 every 6', at9((s) => (s.hour = { ...s.hour, cronEvery: '2', incrementStart: 1, incrementIncrement: 6 })), '0 0 1/6 * * ?', ['2026-11-26 07:00:00', '2026-11-26 13:00:00', '2026-11-26 19:00:00']],
  ['时 every', at9((s) => (s.hour = { ...s.hour, cronEvery: '1' })), '0 0 * * * ?', ['2026-11-26 06:00:00', '2026-11-26 07:00:00', '2026-11-26 08:00:00']],
  ['天 1 every day', at9(), '0 0 9 * * ?', ['2026-11-26 09:00:00', '2026-11-27 09:00:00', '2026-11-28 09:00:00']],
  [
    '天 2 every 2 days of the week from Monday',
    at9((s) => {
      s.day.cronEvery = '2'
      s.week = { ...s.week, incrementStart: 2, incrementIncrement: 2 }
    }),
    '0 0 9 ? * 2/2',
    ['2026-11-27 09:00:00', '2026-11-30 09:00:00', '2026-12-02 09:00:00'],
  ],
  ['天 3 every 10 days from the 1st', at9((s) => (s.day = { ...s.day, cronEvery: '3', incrementStart: 1, incrementIncrement: 10 })), '0 0 9 1/10 * ?', ['2026-12-01 09:00:00', '2026-12-11 09:00:00', '2026-12-21 09:00:00']],
  [
    '天 4 Sunday and Saturday',
    at9((s) => {
      s.day.cronEvery = '4'
      s.week = { ...s.week, specificSpecific: [7, 1] }
    }),
    '0 0 9 ? * 1,7',
    ['2026-11-28 09:00:00', '2026-11-29 09:00:00', '2026-12-05 09:00:00'],
  ],
  ['天 5 the 1st and 15th', at9((s) => (s.day = { ...s.day, cronEvery: '5', specificSpecific: [15, 1] })), '0 0 9 1,15 * ?', ['2026-12-01 09:00:00', '2026-12-15 09:00:00', '2027-01-01 09:00:00']],
  ['天 6 last day', at9((s) => (s.day.cronEvery = '6')), '0 0 9 L * ?', ['2026-11-30 09:00:00', '2026-12-31 09:00:00', '2027-01-31 09:00:00']],
  ['天 7 last weekday', at9((s) => (s.day.cronEvery = '7')), '0 0 9 LW * ?', ['2026-11-30 09:00:00', '2026-12-31 09:00:00', '2027-01-29 09:00:00']],
  ['天 8 last Friday', at9((s) => (s.day = { ...s.day, cronEvery: '8', cronLastSpecificDomDay: 6 })), '0 0 9 ? * 6L', ['2026-11-27 09:00:00', '2026-12-25 09:00:00', '2027-01-29 09:00:00']],
  ['天 9 two days before the end of the month', at9((s) => (s.day = { ...s.day, cronEvery: '9', cronDaysBeforeEomMinus: 2 })), '0 0 9 L-2 * ?', ['2026-11-28 09:00:00', '2026-12-29 09:00:00', '2027-01-29 09:00:00']],
  ['天 10 weekday nearest the 13th', at9((s) => (s.day = { ...s.day, cronEvery: '10', cronDaysNearestWeekday: 13 })), '0 0 9 13W * ?', ['2026-12-14 09:00:00', '2027-01-13 09:00:00', '2027-02-12 09:00:00']],
  [
    '天 11 third Friday',
    at9((s) => {
      s.day.cronEvery = '11'
      s.week = { ...s.week, cronNthDayDay: 6, cronNthDayNth: 3 }
    }),
    '0 0 9 ? * 6#3',
    ['2026-12-18 09:00:00', '2027-01-15 09:00:00', '2027-02-19 09:00:00'],
  ],
  [
    '天 12 Monday to Friday',
    at9((s) => {
      s.day.cronEvery = '12'
      s.week = { ...s.week, rangeStart: 2, rangeEnd: 6 }
    }),
    '0 0 9 ? * 2-6',
    ['2026-11-26 09:00:00', '2026-11-27 09:00:00', '2026-11-30 09:00:00'],
  ],
  ['天 13 the 28th to the 30th', at9((s) => (s.day = { ...s.day, cronEvery: '13', rangeStart: 28, rangeEnd: 30 })), '0 0 9 28-30 * ?', ['2026-11-28 09:00:00', '2026-11-29 09:00:00', '2026-11-30 09:00:00']],
  [
    '月 specific',
    at9((s) => {
      s.day = { ...s.day, cronEvery: '5', specificSpecific: [1] }
      s.month = { ...s.month, cronEvery: '3', specificSpecific: [6, 3] }
    }),
    '0 0 9 1 3,6 ?',
    ['2027-03-01 09:00:00', '2027-06-01 09:00:00', '2028-03-01 09:00:00'],
  ],
  [
    '月 from January every 4',
    at9((s) => {
      s.day = { ...s.day, cronEvery: '5', specificSpecific: [1] }
      s.month = { ...s.month, cronEvery: '2', incrementStart: 1, incrementIncrement: 4 }
    }),
    '0 0 9 1 1/4 ?',
    ['2027-01-01 09:00:00', '2027-05-01 09:00:00', '2027-09-01 09:00:00'],
  ],
  [
    '月 range',
    at9((s) => {
      s.day = { ...s.day, cronEvery: '5', specificSpecific: [1] }
      s.month = { ...s.month, cronEvery: '4', rangeStart: 2, rangeEnd: 3 }
    }),
    '0 0 9 1 2-3 ?',
    ['2027-02-01 09:00:00', '2027-03-01 09:00:00', '2028-02-01 09:00:00'],
  ],
  [
    '年 specific',
    at9((s) => {
      s.day = { ...s.day, cronEvery: '5', specificSpecific: [1] }
      s.month = { ...s.month, cronEvery: '3', specificSpecific: [1] }
      s.year = { ...s.year, cronEvery: '3', specificSpecific: [2028] }
    }),
    '0 0 9 1 1 ? 2028',
    ['2028-01-01 09:00:00'],
  ],
  [
    '年 from 2027 every 2',
    at9((s) => {
      s.day = { ...s.day, cronEvery: '5', specificSpecific: [1] }
      s.month = { ...s.month, cronEvery: '3', specificSpecific: [1] }
      s.year = { ...s.year, cronEvery: '2', incrementStart: 2027, incrementIncrement: 2 }
    }),
    '0 0 9 1 1 ? 2027/2',
    ['2027-01-01 09:00:00', '2029-01-01 09:00:00', '2031-01-01 09:00:00'],
  ],
  [
    '年 range',
    at9((s) => {
      s.day = { ...s.day, cronEvery: '5', specificSpecific: [1] }
      s.month = { ...s.month, cronEvery: '3', specificSpecific: [1] }
      s.year = { ...s.year, cronEvery: '4', rangeStart: 2030, rangeEnd: 2031 }
    }),
    '0 0 9 1 1 ? 2030-2031',
    ['2030-01-01 09:00:00', '2031-01-01 09:00:00'],
  ],
]

describe('cron builder: every mode to a Quartz expression and croner\'s fire times', () => {
  it.each(CASES)('%s', (_name, state, expression, expected) => {
    expect(cronExpression(state)).toBe(expression)
    expect(quartzCronError(expression)).toBeNull()
    expect(fires(expression)).toEqual(expected)
    // 反解析到UI gives back a state that writes the same expression
    expect(cronExpression(parseCronState(expression))).toBe(expression)
  })

  it('covers the 13 day options, each writing ? into exactly one of 日 and 周', () => {
    expect(DAY_MODES.map((m) => m.value)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13'])
    const tested = new Set(CASES.filter(([name]) => name.startsWith('天 ')).map(([, s]) => s.day.cronEvery))
    expect(tested.size).toBe(13)
    for (const mode of DAY_MODES) {
      const [, , , dom, , dow] = cronFields(at9((s) => (s.day.cronEvery = mode.value)))
      expect(mode.week ? dom : dow, mode.label).toBe('?')
      expect(mode.week ? dow : dom, mode.label).not.toBe('?')
    }
  })

  it('opens on every day at 00:00:00, not every second', () => {
    expect(cronExpression(defaultCronState())).toBe('0 0 0 * * ?')
  })

  it('names every 指定 option left without a value instead of reading it as every', () => {
    expect(emptyChoices(defaultCronState())).toEqual([])
    const s = defaultCronState()
    s.minute = { ...s.minute, specificSpecific: [] }
    s.day.cronEvery = '4'
    s.week.specificSpecific = []
    expect(emptyChoices(s)).toEqual(['minute', 'weekday'])
    s.day.cronEvery = '5'
    s.day.specificSpecific = []
    expect(emptyChoices(s)).toEqual(['minute', 'monthDay'])
  })

  it('shows seven fields, the year as * when every year, and offers 100 years from 2021', () => {
    expect(cronFields(every())).toEqual(['*', '*', '*', '*', '*', '?', '*'])
    expect(YEAR_OPTIONS).toHaveLength(100)
    expect(YEAR_OPTIONS[0]).toBe(2021)
    expect(YEAR_OPTIONS[99]).toBe(2120)
  })

  it('bounds every unit as spec 001 §5 writes them', () => {
    expect(CRON_BOUNDS).toEqual({
      second: { start: { min: 0, max: 59 }, interval: { min: 1, max: 60 }, range: { min: 0, max: 59 } },
      minute: { start: { min: 0, max: 59 }, interval: { min: 1, max: 59 }, range: { min: 0, max: 59 } },
      hour: { start: { min: 0, max: 23 }, interval: { min: 0, max: 23 }, range: { min: 0, max: 23 } },
      month: { start: { min: 0, max: 12 }, interval: { min: 0, max: 12 }, range: { min: 1, max: 12 } },
      year: { start: { min: 2021, max: 2121 }, interval: { min: 1, max: 99 }, range: { min: 2021, max: 2121 } },
    })
    expect([DAY_BOUND, WEEK_BOUND, NTH_BOUND, BEFORE_EOM_BOUND]).toEqual([
      { min: 1, max: 31 },
      { min: 1, max: 7 },
      { min: 1, max: 5 },
      { min: 1, max: 31 },
    ])
  })

  it('takes the edges of every bound: a month start of 0 is the first month, an interval of 0 and L-31 are refused with the reason', () => {
    const month = (start: number, interval: number) => at9((s) => (s.month = { ...s.month, cronEvery: '2', incrementStart: start, incrementIncrement: interval }))
    expect(cronExpression(month(0, 2))).toBe('0 0 9 * */2 ?')
    // January, March … November: today (the 26th of November) fires
    expect(fires(cronExpression(month(0, 2)), 2)).toEqual(['2026-11-26 09:00:00', '2026-11-27 09:00:00'])
    expect(cronExpression(month(12, 12))).toBe('0 0 9 * 12/12 ?')
    expect(fires(cronExpression(month(12, 12)), 1)).toEqual(['2026-12-01 09:00:00'])
    expect(intervalZero(month(1, 0))).toEqual(['month'])
    const hour = defaultCronState()
    hour.hour = { ...hour.hour, cronEvery: '2', incrementStart: 23, incrementIncrement: 0 }
    expect(intervalZero(hour)).toEqual(['hour'])
    hour.hour.incrementIncrement = 23
    expect(intervalZero(hour)).toEqual([])
    expect(fires(cronExpression(hour), 2)).toEqual(['2026-11-26 23:00:00', '2026-11-27 23:00:00'])
    // the upper edge of each unit's start and interval still fires
    const top = every()
    top.second = { ...top.second, cronEvery: '2', incrementStart: 59, incrementIncrement: 59 }
    top.minute = { ...top.minute, cronEvery: '2', incrementStart: 59, incrementIncrement: 59 }
    top.year = { ...top.year, cronEvery: '2', incrementStart: 2121, incrementIncrement: 99 }
    expect(cronExpression(top)).toBe('59/59 59/59 * * * ? 2121/99')
    expect(fires(cronExpression(top), 1)).toEqual(['2121-01-01 00:59:59'])
    const eom = (n: number) => at9((s) => (s.day = { ...s.day, cronEvery: '9', cronDaysBeforeEomMinus: n }))
    expect(fires(cronExpression(eom(30)), 1)).toEqual(['2026-12-01 09:00:00'])
    expect(parseCronState('0 0 9 L-31 * ?').day.cronDaysBeforeEomMinus).toBe(31)
    expect(quartzCronError(cronExpression(eom(31)))).toBe('月末前天数必须在1到30之间')
    expect(parseCronState('0 0 9 * */3 ?').month).toMatchObject({ cronEvery: '2', incrementStart: 0, incrementIncrement: 3 })
    expect(() => parseCronState('0 0 9 * 13 ?')).toThrow('“13”超出范围1-12')
    expect(() => parseCronState('0 0 9 * 13/1 ?')).toThrow('“13”超出范围0-12')
  })

  it('parses what people paste: names, */n, seven fields', () => {
    const s = parseCronState('0 */15 8-18 ? JAN-MAR MON-FRI *')
    expect(s.minute).toMatchObject({ cronEvery: '2', incrementStart: 0, incrementIncrement: 15 })
    expect(s.month).toMatchObject({ cronEvery: '4', rangeStart: 1, rangeEnd: 3 })
    expect(s.day.cronEvery).toBe('12')
    expect(s.week).toMatchObject({ rangeStart: 2, rangeEnd: 6 })
    expect(cronExpression(s)).toBe('0 0/15 8-18 ? 1-3 2-6')
  })

  it('refuses what the builder cannot show, with the reason', () => {
    const refused: [string, string][] = [
      ['0 0 9 * *', 'Cron表达式应为6或7个字段'],
      ['0 0 9 * * 2', '日和周必须有且只有一个为“?”'],
      ['0 0 9 ? * ?', '日和周必须有且只有一个为“?”'],
      ['60 0 9 * * ?', '“60”超出范围0-59'],
      ['0 0 24 * * ?', '“24”超出范围0-23'],
      ['0 0 9 ? * 8', '“8”超出范围1-7'],
      ['0 0 9 ? * 6#6', '“6”超出范围1-5'],
      ['0 0 9 * * ? 2200', '“2200”超出范围2021-2121'],
      ['0 0 9 1-5/2 * ?', '无法反解析“1-5/2”'],
    ]
    for (const [expression, message] of refused) {
      expect(() => parseCronState(expression), expression).toThrow(CronParseError)
      expect(() => parseCronState(expression), expression).toThrow(message)
    }
  })
})

describe('Quartz adapter over croner', () => {
  it('follows Quartz where croner alone would not', () => {
    // 6 is Friday in Quartz (1 = Sunday), not Saturday
    expect(fires('0 0 12 ? * 6', 1)).toEqual(['2026-11-27 12:00:00'])
    // L-n, which croner refuses, month by month (February's is earlier)
    expect(fires('0 0 0 L-1 1,2 ? *', 4)).toEqual(['2027-01-30 00:00:00', '2027-02-27 00:00:00', '2028-01-30 00:00:00', '2028-02-28 00:00:00'])
    expect(fires('0 0 0 L-3 * ? 2027', 2)).toEqual(['2027-01-28 00:00:00', '2027-02-25 00:00:00'])
    // a year in the past never fires
    expect(fires('0 0 0 1 1 ? 2025', 1)).toEqual([])
  })

  it('refuses with a Chinese reason', () => {
    expect(quartzCronError('')).toBe('Cron表达式不能为空')
    expect(quartzCronError('0 0 0 * * * * *')).toBe('Cron表达式应为6或7个字段（秒 分 时 日 月 周 [年]）')
    expect(quartzCronError('0 0 0 1 * 2')).toBe('日和周必须有且只有一个为“?”')
    expect(quartzCronError('0 0 0 1 * ? 1960')).toBe('年份必须在1970到2199之间')
    expect(quartzCronError('0 0 0 L-31 * ?')).toBe('月末前天数必须在1到30之间')
    expect(quartzCronError('0 61 0 1 * ?')).toMatch(/^Cron表达式格式错误：/)
  })
})
