import { GEN_CUSTOM_LIST_BTN_TYPE as BT } from '../../shared/generated/enum-codes.js'
import type { ListButtonConfig } from '../../shared/contracts/lowcode-wire.js'
import { tr } from '../i18n/use-tr.js'

/**
 * What a custom list button does (domain-rules §2.11 "Buttons"), as data: the host performs it.
 * Scripts never run here; they go to the sandbox with `params` as their parameter names.
 */
export type ButtonAction =
  | { kind: 'external'; url: string }
  | { kind: 'route'; path: string }
  | { kind: 'form'; formId: string; paramScript?: string; params: readonly string[] }
  | { kind: 'script'; script: string; params: readonly string[] }
  | { kind: 'invalid'; reason: string }

/** Request-param scripts see the list (`_this`) on the toolbar and the row (`row`) on a row, as in the ancestor. */
export type ButtonPlace = 'toolbar' | 'row'

const SAFE_URL = /^(https?:\/\/|mailto:)/i

export function buttonAction(button: Pick<ListButtonConfig, 'btnType' | 'btnConfig' | 'requestParam'>, place: ButtonPlace): ButtonAction {
  const config = (button.btnConfig ?? '').trim()
  const params = place === 'row' ? ['row'] : ['_this']
  switch (button.btnType) {
    case BT.EXTERNAL:
      // Only web addresses: a `javascript:` URL would run outside the sandbox.
      return SAFE_URL.test(config) ? { kind: 'external', url: config } : { kind: 'invalid', reason: tr('外部链接地址不正确') }
    case BT.ROUTE:
      return config.startsWith('/') && !config.startsWith('//') ? { kind: 'route', path: config } : { kind: 'invalid', reason: tr('路由地址不正确') }
    case BT.CUSTOM_FORM: {
      if (!config) return { kind: 'invalid', reason: tr('请选择自定义表单') }
      const script = button.requestParam?.trim()
      return { kind: 'form', formId: config, paramScript: script || undefined, params }
    }
    case BT.EXECUTE_SCRIPT:
      // Scripts always see `_this` (for row buttons it holds the row as well).
      return config ? { kind: 'script', script: config, params: ['_this'] } : { kind: 'invalid', reason: tr('脚本为空') }
    default:
      return { kind: 'invalid', reason: tr('未知的按钮类型') }
  }
}

/** antd Button props of a view type; link-danger is a red link. */
export function buttonLook(viewType: string | null | undefined): { type: 'primary' | 'default' | 'dashed' | 'link'; danger: boolean } {
  switch (viewType) {
    case 'primary':
      return { type: 'primary', danger: false }
    case 'dashed':
      return { type: 'dashed', danger: false }
    case 'danger':
      return { type: 'primary', danger: true }
    case 'link':
      return { type: 'link', danger: false }
    case 'link-danger':
      return { type: 'link', danger: true }
    default:
      return { type: 'default', danger: false }
  }
}

/** A script's answer as a form's request params: an object, else nothing. */
export function asRequestParam(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}
