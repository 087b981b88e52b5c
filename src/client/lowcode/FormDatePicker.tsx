import { useEffect, type ComponentProps } from 'react'
import { DatePicker } from '@formily/antd-v5'
import { useField } from '@formily/react'
import type { Field } from '@formily/core'
import dayjs from 'dayjs'
import { outsideBounds } from './form-designer-model.js'

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

/**
 * The bounds as a rule of the field, not only greyed days in the calendar: a value set by the form's
 * initial data, a script or a pasted range is refused on submit too.
 */
function useBounds(minDate: string | undefined, maxDate: string | undefined) {
  const field = useField<Field>()
  useEffect(() => {
    if (minDate || maxDate) field.setValidatorRule('validator', (value: unknown) => outsideBounds(value, minDate, maxDate) ?? '')
  }, [field, minDate, maxDate])
}

/** The picker's own default format, as Formily's DatePicker derives it. */
const formatOf = (format: unknown, showTime: unknown) => (typeof format === 'string' && format ? format : showTime ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD')

/** 日期 of a stored custom form: Formily's DatePicker with the designer's date rules. */
function FormDatePicker({ defaultToday, minDate, maxDate, ...props }: BaseProps & DateRules) {
  const field = useField<Field>()
  useEffect(() => {
    if (!defaultToday || field.initialValue !== undefined || (field.value !== undefined && field.value !== null && field.value !== '')) return
    field.setInitialValue(dayjs().format(formatOf(props.format, props.showTime)))
  }, []) // eslint-disable-line react-hooks/exhaustive-deps -- once, when the field first shows
  useBounds(minDate, maxDate)
  return <DatePicker {...props} minDate={day(minDate)} maxDate={day(maxDate)} />
}

/** 日期范围 of a stored custom form, with the same range rule. */
function FormRangePicker({ minDate, maxDate, ...props }: RangeProps & Omit<DateRules, 'defaultToday'>) {
  useBounds(minDate, maxDate)
  return <DatePicker.RangePicker {...props} minDate={day(minDate)} maxDate={day(maxDate)} />
}

export default Object.assign(FormDatePicker, { RangePicker: FormRangePicker })
