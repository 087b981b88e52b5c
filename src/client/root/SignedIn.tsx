import EntityFormModal from '../runtime/EntityFormModal.js'
import PickerInput from '../runtime/picker/PickerInput.js'
import { providePickerAddForm, provideSearchPicker } from '../runtime/picker/picker-slots.js'
import ShellLayout from '../shell/ShellLayout.js'
import './features.js'

/**
 * The signed-in app, one lazy chunk: the features register their pages, controls and header items,
 * the pickers get their 新增 form and search forms their picker fields, then the shell shows what was registered.
 */
providePickerAddForm(EntityFormModal)
provideSearchPicker(PickerInput)

export default ShellLayout
