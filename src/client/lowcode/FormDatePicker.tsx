import { useEffect, type ComponentProps } from 'react'
import { DatePicker } from '@formily/antd-v5'
import { useField } from '@formily/react'
import type { Field } from '@formily/core'
import dayjs from 'dayjs'

type BaseProps = Omit<ComponentProps<typeof DatePicker>, 'minDate' | 'maxDate'>
type RangeProps = Omit<ComponentProps<typeof DatePicker.RangePicker>, 'minDate' | 'maxDate'>

/** What a stored form may say of a date beside the picker's own props (JSON: no functions, no dayjs). */
interface DateRules {
  /** a single date starts with today (now, with a time) when the form gives it no value */
  defaultToday?: boolean
  /** earliest and latest day that can be chosen, YYYY-MM-DD */
  minDate?: string
  maxDate?: string
}

const day = (text: string | undefined) => (text && dayjs(text).isValid() ? dayjs(text) : undefined)

/** The picker's own default format, as Formily's DatePicker derives it. */
const formatOf = (format: unknown, showTime: unknown) => (typeof format === 'string' && format ? format : showTime ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD')

/** 日期 of a stored custom form: Formily's DatePicker with the designer's date rules. */
function FormDatePicker({ defaultToday, minDate, maxDate, ...props }: BaseProps & DateRules) {
  const field = useField<Field>()
  useEffect(() => {
    if (!defaultToday || field.initialValue !== undefined || (field.value !== undefined && field.value !== null && field.value !== '')) return
    field.setInitialValue(dayjs().format(formatOf(props.format, props.showTime)))
  }, []) // eslint-disable-line react-hooks/exhaustive-deps -- once, when the field first shows
  return <DatePicker {...props} minDate={day(minDate)} maxDate={day(maxDate)} />
}

/** 日期范围 of a stored custom form, with the same range rule. */
function FormRangePicker({ minDate, maxDate, ...props }: RangeProps & Omit<DateRules, 'defaultToday'>) {
  return <DatePicker.RangePicker {...props} minDate={day(minDate)} maxDate={day(maxDate)} />
}

export default Object.assign(FormDatePicker, { RangePicker: FormRangePicker })
