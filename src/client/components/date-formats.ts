import dayjs, { type Dayjs } from 'dayjs'
import customParseFormat from 'dayjs/plugin/customParseFormat.js'

dayjs.extend(customParseFormat)

/** How dates and date-times are shown and sent (the wire format of the API). */
export const DATE_FORMAT = 'YYYY-MM-DD'
export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm:ss'

/** A week as people write it (2026 W48), not antd's ordinal `2026-48th`. */
export const WEEK_FORMAT = 'gggg [W]ww'

const DAY_FORMATS = ['YYYY-MM-DD', 'YYYY/MM/DD', 'YYYY.MM.DD', 'YYYYMMDD', 'YYYY-M-D', 'YYYY/M/D', 'YYYY年M月D日'] // i18n-ignore: formats, not texts

/**
 * What a clerk may type into a date box, the display format first (antd parses a typed text with every
 * format of the list and shows the first): 2026-12-05, 2026/12/05, 2026.12.05, 20261205, 2026年12月5日.
 */
export const DATE_INPUT_FORMATS = DAY_FORMATS

/** The same for a date-time box: with seconds, with minutes only, or a day alone (at 00:00:00). */
export const DATETIME_INPUT_FORMATS = [
  DATETIME_FORMAT,
  ...DAY_FORMATS.flatMap((day) => [`${day} HH:mm:ss`, `${day} HH:mm`, day]).filter((f) => f !== DATETIME_FORMAT),
]

/** A typed text as a date of the given formats (strict), or undefined when none reads it. */
export function parseTypedDate(text: string, formats: readonly string[]): Dayjs | undefined {
  const trimmed = text.trim()
  for (const format of formats) {
    const d = dayjs(trimmed, format, true)
    if (d.isValid()) return d
  }
  return undefined
}
