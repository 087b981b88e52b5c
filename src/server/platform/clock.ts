import dayjs, { type Dayjs } from 'dayjs'

/**
 * The server's clock. Tests move it (`setClock`) to prove rules that depend on elapsed days (the CRM
 * public sea's automatic return, protection and cool-down periods) without waiting; time keeps flowing
 * from the moment it was set to. Production never sets it.
 */
let offsetMs = 0
/** The last second `now` formatted (an approval asks for it about ten times; dayjs formats anew each time). */
let lastSecond = NaN
let lastText = ''

export const clock = (): Dayjs => (offsetMs ? dayjs().add(offsetMs, 'millisecond') : dayjs())

/** Moves the clock to `at` (`YYYY-MM-DD HH:mm:ss` or anything dayjs reads); no argument puts it back. */
export function setClock(at?: string | Date): void {
  offsetMs = at === undefined ? 0 : dayjs(at).diff(dayjs())
  lastSecond = NaN
}

/** Timestamps as stored and answered: local time `YYYY-MM-DD HH:mm:ss` (the spec's wire format). */
export function now(): string {
  const second = Math.floor((Date.now() + offsetMs) / 1000)
  if (second !== lastSecond) {
    lastText = dayjs(second * 1000).format('YYYY-MM-DD HH:mm:ss')
    lastSecond = second
  }
  return lastText
}
export const later = (minutes: number) => clock().add(minutes, 'minute').format('YYYY-MM-DD HH:mm:ss')
export const today = () => clock().format('YYYY-MM-DD')
