import { call } from '../../api/call.js'
import { pickerCalls } from '../../../shared/contracts/picker-calls.js'
import type { FormControlProps } from '../../components/form-controls.js'
import ProposedInput from '../../components/ProposedInput.js'
import { deriveRules } from '../../../shared/metadata/derive.js'
import { MENU_DISPLAY } from '../../../shared/generated/enum-codes.js'

/** The proposal from the parent's path and the title; a button (权限) has no route and gets none. */
async function pathOfMenu(values: Record<string, unknown>): Promise<string | undefined> {
  if (Number(values.display) === MENU_DISPLAY.PERMISSION) return undefined
  const parentId = values.parentId
  let parentPath: unknown = ''
  if (typeof parentId === 'string' && parentId) {
    const rows = await call(pickerCalls('menu').load, [parentId], { hideError: true }).catch(() => [])
    parentPath = rows[0]?.path
  }
  return deriveRules.menuPath(parentPath, values.title)
}

/** 路由路径 of the menu form: proposed from the parent and the title while the admin has not typed one; what the admin types stays. */
export default function MenuPathInput(props: FormControlProps & { placeholder?: string }) {
  return <ProposedInput {...props} watch="*(title,parentId,display)" propose={pathOfMenu} />
}
