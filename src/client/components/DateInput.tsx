import { DatePicker, type DatePickerProps } from 'antd'
import { useFeedback } from './feedback.js'
import { useTr } from '../i18n/use-tr.js'
import { DATE_FORMAT, DATE_INPUT_FORMATS, DATETIME_FORMAT, DATETIME_INPUT_FORMATS, WEEK_FORMAT, parseTypedDate } from './date-formats.js'

/**
 * The formats a day or date-time picker reads typed text in: the usual ones when the picker shows the
 * wire format (or none is given); a picker of weeks shows 2026 W48; one of months, or one with a format
 * of its own, keeps it.
 */
export function inputFormatsOf(props: { picker?: string; showTime?: unknown; format?: unknown }) {
  if (props.picker === 'week' && props.format === undefined) return WEEK_FORMAT
  if ((props.picker && props.picker !== 'date') || (props.format !== undefined && props.format !== DATE_FORMAT && props.format !== DATETIME_FORMAT)) return undefined
  return props.showTime ? DATETIME_INPUT_FORMATS : DATE_INPUT_FORMATS
}

/**
 * antd's DatePicker that reads what a clerk types (2026-12-05, 2026/12/05, 20261205, with or without a
 * time: DATE_INPUT_FORMATS) and, when it cannot read the text, says so on leaving the box instead of
 * silently keeping the old value (antd's own behaviour).
 */
function DateInput(props: DatePickerProps) {
  const tr = useTr()
  const { message } = useFeedback()
  const formats = inputFormatsOf(props) ?? (props.format as string[] | string | undefined)
  return (
    <DatePicker
      placeholder={props.showTime ? tr('请选择日期时间') : undefined}
      // A typed date-time counts when the box is left, as a typed date does (antd waits for 确定 otherwise).
      needConfirm={false}
      {...props}
      format={formats as DatePickerProps['format']}
      onBlur={(e, info) => {
        // What is in the box as it is left: a date it shows, or text antd could not read and will drop.
        const text = (e.target as HTMLInputElement).value?.trim() ?? ''
        const list = Array.isArray(formats) ? formats : typeof formats === 'string' ? [formats] : []
        if (text && list.length && !parseTypedDate(text, list)) message.warning(tr(`无法识别的日期“${text}”，请按 2026-12-05 的格式输入`))
        props.onBlur?.(e, info)
      }}
    />
  )
}

/** The range picker with the same typed formats. */
DateInput.RangePicker = function DateRangeInput(props: React.ComponentProps<typeof DatePicker.RangePicker>) {
  const format = inputFormatsOf(props) ?? props.format
  return <DatePicker.RangePicker needConfirm={false} {...props} format={format as typeof props.format} />
}

export default DateInput
