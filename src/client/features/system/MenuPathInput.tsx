import { call } from '../../api/call.js'
import { pickerCalls } from '../../../shared/contracts/picker-calls.js'
import type { FormControlProps } from '../../components/form-controls.js'
import ProposedInput from '../../components/ProposedInput.js'
import { deriveRules } from '../../../shared/metadata/derive.js'
import { MENU_DISPLAY } from '../../../shared/generated/enum-codes.js'

/** The parent's path and the title's pinyin: 客户关系管理 (/crm) › 客户列表 proposes /crm/ke-hu-lie-biao. */
export function proposedPath(parentPath: unknown, title: unknown): string {
  const slug = deriveRules.routeSlug(String(title ?? ''))
  if (!slug) return ''
  const base = typeof parentPath === 'string' ? parentPath.replace(/\/+$/, '') : ''
  return `${base}/${slug}`
}

/** The proposal from the parent's path and the title; a button (权限) has no route and gets none. */
async function pathOfMenu(values: Record<string, unknown>): Promise<string | undefined> {
  if (Number(values.display) === MENU_DISPLAY.PERMISSION) return undefined
  const parentId = values.parentId
  let parentPath: unknown = ''
  if (typeof parentId === 'string' && parentId) {
    const rows = await call(pickerCalls('menu').load, [parentId], { hideError: true }).catch(() => [])
    parentPath = rows[0]?.path
  }
  return proposedPath(parentPath, values.title)
}

/** 路由路径 of the menu form: proposed from the parent and the title while the admin has not typed one; what the admin types stays. */
export default function MenuPathInput(props: FormControlProps & { placeholder?: string }) {
  return <ProposedInput {...props} watch="*(title,parentId,display)" propose={pathOfMenu} />
}
