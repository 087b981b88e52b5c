import { Cron } from 'croner'

/**
 * Quartz cron expressions (seconds minutes hours day-of-month month day-of-week [year]) evaluated with
 * croner, the one adapter the server's scheduler and the browser's cron builder share.
 *
 * croner follows Quartz only with `sloppyRanges` (`0/5`), `alternativeWeekdays` (1 = Sunday … 7 =
 * Saturday, so `6L` and `6#3` are Fridays) and `mode: '6-or-7-parts'`; its year field covers `2030`,
 * ranges and steps. What this file adds:
 * - Quartz's rule that exactly one of day-of-month and day-of-week is `?` (croner accepts both or none);
 * - years limited to 1970-2199 as in Quartz (croner silently never fires for 1999);
 * - `L-n` (n days before the end of the month), which croner refuses: evaluated here month by month,
 *   with croner finding the time of day inside the chosen day (so seconds, hours, months and years
 *   still come from croner).
 * Times are local to the process (browser or server), as Quartz's default time zone.
 */
const OPTIONS = { sloppyRanges: true, alternativeWeekdays: true, mode: '6-or-7-parts', paused: true } as const

export class CronSyntaxError extends Error {}

const MIN_YEAR = 1970
const MAX_YEAR = 2199

interface Parsed {
  fields: string[]
  /** `L-n` in day-of-month: n, else null. */
  beforeEnd: number | null
}

function split(expression: string): Parsed {
  if (typeof expression !== 'string') throw new CronSyntaxError('Cron表达式不能为空')
  const fields = expression.trim().split(/\s+/).filter(Boolean)
  if (!fields.length) throw new CronSyntaxError('Cron表达式不能为空')
  if (fields.length !== 6 && fields.length !== 7) throw new CronSyntaxError('Cron表达式应为6或7个字段（秒 分 时 日 月 周 [年]）')
  const [, , , dom, , dow, year] = fields
  if ((dom === '?') === (dow === '?')) throw new CronSyntaxError('日和周必须有且只有一个为“?”')
  if (year !== undefined && year !== '*') {
    for (const part of year.split(',')) {
      // a step (`2021/5`) is a count, not a year
      for (const n of part.split('/')[0].match(/\d+/g) ?? []) {
        const v = Number(n)
        if (v < MIN_YEAR || v > MAX_YEAR) throw new CronSyntaxError(`年份必须在${MIN_YEAR}到${MAX_YEAR}之间`)
      }
    }
  }
  const m = /^L-(\d{1,2})$/.exec(dom)
  const beforeEnd = m ? Number(m[1]) : null
  if (beforeEnd !== null && (beforeEnd < 1 || beforeEnd > 30)) throw new CronSyntaxError('月末前天数必须在1到30之间')
  return { fields, beforeEnd }
}

function cron(fields: string[]): Cron {
  try {
    return new Cron(fields.join(' '), OPTIONS)
  } catch (error) {
    throw new CronSyntaxError(`Cron表达式格式错误：${error instanceof Error ? error.message.replace(/^CronPattern: /, '') : String(error)}`)
  }
}

/** A compiled expression: `next(after)` is the first fire time strictly after `after`, or null when none is left. */
export interface QuartzCron {
  readonly expression: string
  next(after: Date): Date | null
}

export function parseQuartzCron(expression: string): QuartzCron {
  const { fields, beforeEnd } = split(expression)
  if (beforeEnd === null) {
    const c = cron(fields)
    return { expression, next: (after) => c.nextRun(after) }
  }
  // Checks every other field once, with a day croner accepts.
  cron(fields.map((f, i) => (i === 3 ? '1' : f)))
  const compiled = new Map<number, Cron>()
  return {
    expression,
    next(after) {
      let y = after.getFullYear()
      let mo = after.getMonth()
      while (y <= MAX_YEAR) {
        const day = new Date(y, mo + 1, 0).getDate() - beforeEnd
        if (day >= 1) {
          let c = compiled.get(day)
          if (!c) compiled.set(day, (c = cron(fields.map((f, idx) => (idx === 3 ? String(day) : f)))))
          // from the start of this month, so a match of the same day number in an earlier month is not taken
          const monthStart = new Date(y, mo, 1).getTime() - 1
          const hit = c.nextRun(new Date(Math.max(after.getTime(), monthStart)))
          // a hit in a later month (or none) is not an answer: each month has its own day
          if (hit && hit.getFullYear() === y && hit.getMonth() === mo) return hit
        }
        mo++
        if (mo > 11) {
          mo = 0
          y++
        }
      }
      return null
    },
  }
}

/** The reason an expression is refused, or null when it is a valid Quartz expression. */
export function quartzCronError(expression: string): string | null {
  try {
    parseQuartzCron(expression)
    return null
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/** The next `count` fire times after `from` (fewer when the expression runs out, e.g. a past year). */
export function nextFireTimes(expression: string, count: number, from: Date = new Date()): Date[] {
  const c = parseQuartzCron(expression)
  const out: Date[] = []
  let at = from
  while (out.length < count) {
    const next = c.next(at)
    if (!next) break
    out.push(next)
    at = next
  }
  return out
}
