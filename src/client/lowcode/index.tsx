import { lazy } from 'react'
import { mutate } from 'swr'
import { onEntityWritten } from '../api/entity-writes.js'
import { registerControlKind, registerFormControl } from '../components/form-controls.js'
import { provideSelectorDialog } from './selector-dialog-slot.js'
import { registerRowAction } from '../runtime/row-actions.js'
import { registerLowCodeHost, registerMenuPage, type LowCodeHostProps } from '../app/menu-pages.js'
import { PAGE_FORM_WIDTH } from '../../shared/look/ui-constants.js'

/**
 * The low-code layer in the browser: the hosts of custom lists, forms and pages behind menus of
 * component type 1/2/3, the custom selector control, and the admin screens of 开发管理 (generic
 * entity screens plus the editors the generic form cannot do). Everything heavy loads on first use;
 * this file only registers.
 */

const EntityPage = lazy(() => import('../runtime/EntityPage.js'))
const CustomListHost = lazy(() => import('./CustomListHost.js'))
const CustomFormHost = lazy(() => import('./CustomFormHost.js'))
const CustomPageHost = lazy(() => import('./CustomPageHost.js'))
const CustomSelectorInput = lazy(() => import('./CustomSelectorInput.js'))
const CustomSelectorDialog = lazy(() => import('./CustomSelectorDialog.js'))
const FormConfigEditor = lazy(() => import('./FormConfigEditor.js'))
const ScriptEditor = lazy(() => import('./ScriptEditor.js'))
const MenuComponentInput = lazy(() => import('./MenuComponentInput.js'))
const FormDesignerPage = lazy(() => import('./FormDesigner.js'))
const CodePreviewDialog = lazy(() => import('./CodePreviewDialog.js'))
const CustomListScreen = lazy(() => import('./CustomListScreen.js'))
const DataObjAliasInput = lazy(() => import('./DataObjAliasInput.js'))
const ListFieldsEditor = lazy(() => import('./ListConfigEditors.js').then((m) => ({ default: m.ListFieldsEditor })))
const ListQueryParamsEditor = lazy(() => import('./ListConfigEditors.js').then((m) => ({ default: m.ListQueryParamsEditor })))
const ListToolbarsEditor = lazy(() => import('./ListConfigEditors.js').then((m) => ({ default: m.ListToolbarsEditor })))
const ListHandleColumnsEditor = lazy(() => import('./ListConfigEditors.js').then((m) => ({ default: m.ListHandleColumnsEditor })))
const DataEntityTableInput = lazy(() => import('./DataEntityEditors.js').then((m) => ({ default: m.DataEntityTableInput })))
const DataEntityColumnsEditor = lazy(() => import('./DataEntityEditors.js').then((m) => ({ default: m.DataEntityColumnsEditor })))
const DataObjJoinsEditor = lazy(() => import('./DataObjEditors.js').then((m) => ({ default: m.DataObjJoinsEditor })))
const DataObjCustomColumnsEditor = lazy(() => import('./DataObjEditors.js').then((m) => ({ default: m.DataObjCustomColumnsEditor })))

registerLowCodeHost('list', ({ id }: LowCodeHostProps) => <CustomListHost key={id} listId={id} />)
// A custom form opened from its menu is a page's form: the spec's content width (000 §9); as a block of a custom page it fills its column.
registerLowCodeHost('form', ({ id, requestParam }: LowCodeHostProps) => (
  <div style={{ width: PAGE_FORM_WIDTH }} data-page-form>
    <CustomFormHost key={id} formId={id} requestParam={requestParam} />
  </div>
))
registerLowCodeHost('page', ({ id }: LowCodeHostProps) => <CustomPageHost key={id} pageId={id} />)

registerControlKind('CUSTOM_SELECTOR', CustomSelectorInput)
provideSelectorDialog(CustomSelectorDialog)

// 开发管理: the seed's menu components are the ancestor's view paths; each is the generic screen of its entity file.
const ADMIN_SCREENS: Record<string, string> = {
  '/development/data/entity/index': 'genDataEntity',
  '/development/data/obj/index': 'genDataObj',
  '/development/custom/selector/index': 'genCustomSelector',
  '/development/custom/form/index': 'genCustomForm',
  '/development/custom/page/index': 'genCustomPage',
}
for (const [component, entityName] of Object.entries(ADMIN_SCREENS)) registerMenuPage(component, () => <EntityPage entityName={entityName} />)
registerMenuPage('/development/custom/list/index', () => <CustomListScreen />)
registerMenuPage('/development/fm-designer/index', () => <FormDesignerPage />)

registerFormControl('menu', 'component', MenuComponentInput)
registerFormControl('genCustomForm', 'formConfig', FormConfigEditor)
registerFormControl('genCustomForm', 'prefixSubmit', ScriptEditor)
registerFormControl('genCustomForm', 'suffixSubmit', ScriptEditor)
registerFormControl('genCustomPage', 'componentConfig', (p) => <ScriptEditor {...p} height={360} />)
registerFormControl('genCustomList', 'fields', ListFieldsEditor)
registerFormControl('genCustomList', 'queryParams', ListQueryParamsEditor)
registerFormControl('genCustomList', 'toolbars', ListToolbarsEditor)
registerFormControl('genCustomList', 'handleColumns', ListHandleColumnsEditor)
registerFormControl('genDataEntity', 'tableName', DataEntityTableInput)
registerFormControl('genDataEntity', 'columns', DataEntityColumnsEditor)
registerFormControl('genDataObj', 'mainTableAlias', DataObjAliasInput)
registerFormControl('genDataObj', 'joins', DataObjJoinsEditor)
registerFormControl('genDataObj', 'customColumns', DataObjCustomColumnsEditor)

registerRowAction('genDataEntity', 'preview', (row, _reload, close) => <CodePreviewDialog entityId={row.id} onClose={close} />)

// An open custom list picks up its saved configuration (fields, formatters, buttons) without a reload.
onEntityWritten('genCustomList', () => void mutate((key) => Array.isArray(key) && key[0] === '/gen/api/custom/list/config'))
