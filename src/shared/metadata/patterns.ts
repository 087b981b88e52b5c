/**
 * Named input patterns of the spec (000 §5 "Generic"), shared by the server validator and the browser
 * form. An entity field names one with `"pattern": "code"`; `patternMessage` may override the message.
 */
export interface NamedPattern {
  regex: RegExp
  /** Message with `{label}` replaced by the field label. */
  message: string
}

export const patterns = {
  code: { regex: /^[A-Za-z0-9\-_.]{1,20}$/, message: '编号必须由字母、数字、“-_.”组成，长度不能超过20位' },
  email: { regex: /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/, message: '邮箱地址格式不正确' },
  mobile: { regex: /^1[3-9]\d{9}$/, message: '手机号码格式不正确' },
  username: { regex: /^[A-Za-z0-9_]{5,16}$/, message: '用户名必须由字母、数字、下划线组成，长度为5-16位' },
  url: { regex: /^(https?:\/\/|\/)/, message: '{label}必须以http://、https://或/开头' },
  digits: { regex: /^\d+$/, message: '{label}必须为数字' },
  integer: { regex: /^-?\d+$/, message: '{label}必须为整数' },
  positiveInteger: { regex: /^[1-9]\d*$/, message: '{label}必须为正整数' },
  negativeInteger: { regex: /^-[1-9]\d*$/, message: '{label}必须为负整数' },
  nonNegativeInteger: { regex: /^\d+$/, message: '{label}必须为非负整数' },
  signedDecimal: { regex: /^-?\d+(\.\d+)?$/, message: '{label}必须为数字' },
  price: { regex: /^\d+(\.\d{1,2})?$/, message: '{label}最多允许2位小数，且不能为负数' },
  zipCode: { regex: /^\d{6}$/, message: '邮编必须为6位数字' },
  telephone: { regex: /^[0-9\-+() ]{5,20}$/, message: '电话格式不正确' },
} satisfies Record<string, NamedPattern>

export type PatternName = keyof typeof patterns

export function isPatternName(name: string): name is PatternName {
  return Object.prototype.hasOwnProperty.call(patterns, name)
}
