import { createSchemaField, connect, mapReadPretty } from '@formily/react'
import { FormGrid, FormItem, Input, NumberPicker, Password, PreviewText, Radio, Select } from '@formily/antd-v5'
import FormDateInput from '../components/FormDateInput.js'
import BooleanSwitch, { type BooleanSwitchProps } from '../components/BooleanSwitch.js'
import IconPicker, { type IconPickerProps } from '../components/IconPicker.js'
import DictionarySelect from '../components/DictionarySelect.js'
import ImageUpload, { type ImageUploadProps } from '../components/ImageUpload.js'
import VideoUpload, { type VideoUploadProps } from '../components/VideoUpload.js'
import JsonInput, { type JsonInputProps } from '../components/JsonInput.js'
import PickerInput, { type PickerInputProps } from './picker/PickerInput.js'
import RefText, { type RefTextProps } from '../components/RefText.js'
import RegionCascader, { regionPath, type RegionCascaderProps } from '../components/RegionCascader.js'

/**
 * The components entity forms may name in `x-component`. Our own inputs are plain value/onChange
 * components; `connect` gives them a read-only rendering for detail forms.
 */
export const formComponents = {
  FormItem,
  FormGrid,
  Input,
  Password,
  NumberPicker,
  Select,
  Radio,
  // Reads typed dates in the usual formats (2026-12-05, 2026/12/05, 20261205…) and says when it cannot.
  DatePicker: FormDateInput,
  BooleanSwitch: connect(BooleanSwitch, mapReadPretty((p: BooleanSwitchProps) => <BooleanSwitch {...p} readPretty />)),
  // Read-only values go through PreviewText so they look like every other detail value.
  PickerInput: connect(
    PickerInput,
    mapReadPretty((p: PickerInputProps) => (
      <PickerInput {...p} readPretty renderText={(text) => <PreviewText.Input value={text || undefined} />} />
    )),
  ),
  RegionCascader: connect(
    RegionCascader,
    mapReadPretty((p: RegionCascaderProps) => <PreviewText.Input value={regionPath(p.value, ' / ') || p.value || undefined} />),
  ),
  IconPicker: connect(IconPicker, mapReadPretty((p: IconPickerProps) => <IconPicker {...p} readPretty />)),
  // A dictionary field stores the item's name: its detail shows the text itself.
  DictionarySelect: connect(DictionarySelect, mapReadPretty((p: { value?: unknown }) => <PreviewText.Input value={p.value ? String(p.value) : undefined} />)),
  ImageUpload: connect(ImageUpload, mapReadPretty((p: ImageUploadProps) => <ImageUpload {...p} readPretty />)),
  VideoUpload: connect(VideoUpload, mapReadPretty((p: VideoUploadProps) => <VideoUpload {...p} readPretty />)),
  JsonInput: connect(JsonInput, mapReadPretty((p: JsonInputProps) => <JsonInput {...p} readPretty />)),
  RefText: connect(RefText, mapReadPretty((p: RefTextProps) => <PreviewText.Input value={p.text || undefined} />)),
}

export const SchemaField = createSchemaField({ components: formComponents })
