import { connect, createSchemaField } from '@formily/react'
import { Checkbox, DatePicker, FormGrid, FormItem, FormLayout, Input, NumberPicker, Password, Radio, Select, Space, Switch, TimePicker } from '@formily/antd-v5'
import CustomSelectorInput from './CustomSelectorInput.js'

/**
 * The only components a stored custom form can render (formily-schema.ts lists the same names):
 * Formily's antd set, plus the custom selector. No user-supplied React.
 */
export const customFormComponents = {
  FormItem,
  FormGrid,
  FormLayout,
  Space,
  Input,
  Password,
  NumberPicker,
  Select,
  Radio,
  Checkbox,
  Switch,
  DatePicker,
  TimePicker,
  CustomSelector: connect(CustomSelectorInput),
}

export const CustomFormSchemaField = createSchemaField({ components: customFormComponents })
