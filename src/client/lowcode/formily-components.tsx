import { connect, createSchemaField } from '@formily/react'
import { Checkbox, FormGrid, FormItem, FormLayout, Input, NumberPicker, Password, Radio, Select, Space, Switch, TimePicker } from '@formily/antd-v5'
import CustomSelectorInput from './CustomSelectorInput.js'
import DataDicSelect from '../components/DictionarySelect.js'
import DatePicker from './FormDatePicker.js'
import VideoUpload from '../components/VideoUpload.js'

/**
 * The only components a stored custom form can render (formily-schema.ts lists the same names):
 * Formily's antd set (the date pickers with the designer's date rules), plus the custom selector, the
 * data-dictionary select and the video uploader (000 §7 POST /component/upload/video, played at the
 * spec's rates). No user-supplied React.
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
  DataDicSelect: connect(DataDicSelect),
  VideoUpload: connect(VideoUpload),
}

export const CustomFormSchemaField = createSchemaField({ components: customFormComponents })
