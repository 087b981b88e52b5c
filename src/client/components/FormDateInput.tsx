import { connect, mapReadPretty } from '@formily/react'
import { PreviewText } from '@formily/antd-v5'
import dayjs from 'dayjs'
import type { DatePickerProps } from 'antd'
import DateInput, { inputFormatsOf } from './DateInput.js'
import { DATE_FORMAT, DATETIME_FORMAT, parseTypedDate } from './date-formats.js'

type WireDateProps = Omit<DatePickerProps, 'value' | 'onChange'> & {
  value?: unknown
  onChange?: (value: string | undefined) => void
}

/** DateInput over the wire text (DATE_FORMAT or DATETIME_FORMAT), whatever format the clerk typed it in. */
function WireDateInput({ value, onChange, ...props }: WireDateProps) {
  const wire = props.showTime ? DATETIME_FORMAT : DATE_FORMAT
  const shown =
    value == null || value === '' ? undefined : dayjs.isDayjs(value) ? value : (parseTypedDate(String(value), [wire, ...(inputFormatsOf(props) ?? [])]) ?? dayjs(String(value)))
  return <DateInput {...props} value={shown} onChange={(d) => onChange?.(d ? d.format(wire) : undefined)} />
}

/** The date field of forms and custom forms (Formily). */
const FormDateInput = connect(WireDateInput, mapReadPretty(PreviewText.DatePicker))

export default FormDateInput
