import { useLayoutEffect, useRef } from 'react'
import { Input } from 'antd'
import { onFieldInputValueChange } from '@formily/core'
import { useForm } from '@formily/react'
import { call } from '../../api/call.js'
import { pickerCalls } from '../../../shared/contracts/picker-calls.js'
import type { FormControlProps } from '../../components/form-controls.js'
import { deriveRules } from '../../../shared/metadata/derive.js'
import { MENU_DISPLAY } from '../../../shared/generated/enum-codes.js'

let forms = 0

/** The parent's path and the title's pinyin: 客户关系管理 (/crm) › 客户列表 proposes /crm/ke-hu-lie-biao. */
export function proposedPath(parentPath: unknown, title: unknown): string {
  const slug = deriveRules.routeSlug(String(title ?? ''))
  if (!slug) return ''
  const base = typeof parentPath === 'string' ? parentPath.replace(/\/+$/, '') : ''
  return `${base}/${slug}`
}

/**
 * 路由路径 of the menu form: proposed from the parent and the title while the admin has not typed one
 * (a button, 权限, has no route and gets no proposal); what the admin types stays.
 */
export default function MenuPathInput({ value, onChange, disabled, readPretty, id, placeholder, 'aria-label': ariaLabel }: FormControlProps & { placeholder?: string }) {
  const form = useForm()
  // A stored path or one the admin typed is theirs; an empty field takes proposals.
  const own = useRef(typeof value === 'string' && value !== '')
  const proposed = useRef('')
  const change = useRef(onChange)
  change.current = onChange

  useLayoutEffect(() => {
    const key = `menu-path:${++forms}`
    form.addEffects(key, () => {
      onFieldInputValueChange('*(title,parentId,display)', async () => {
        const values = form.values as Record<string, unknown>
        if (own.current || Number(values.display) === MENU_DISPLAY.PERMISSION) return
        const parentId = values.parentId
        let parentPath: unknown = ''
        if (typeof parentId === 'string' && parentId) {
          const rows = await call(pickerCalls('menu').load, [parentId], { hideError: true }).catch(() => [])
          parentPath = rows[0]?.path
        }
        const latest = form.values as Record<string, unknown>
        if (own.current || latest.parentId !== parentId) return
        proposed.current = proposedPath(parentPath, latest.title)
        change.current?.(proposed.current)
      })
    })
    return () => form.removeEffects(key)
  }, [form])

  if (readPretty) return <span>{typeof value === 'string' ? value : ''}</span>
  return (
    <Input
      id={id}
      aria-label={ariaLabel}
      disabled={disabled}
      value={typeof value === 'string' ? value : ''}
      placeholder={placeholder}
      onChange={(e) => {
        own.current = e.target.value !== ''
        onChange?.(e.target.value)
      }}
    />
  )
}
