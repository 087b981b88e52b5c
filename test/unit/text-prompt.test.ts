import { describe, expect, it } from 'vitest'
import { promptError, PROMPT_FORMAT_ERROR } from '../../src/client/components/text-prompt.js'
import { readButtonAction } from '../../src/shared/sandbox/script-kinds.js'

describe('text prompt (spec 000 §5: a pattern, default message 输入格式错误)', () => {
  it('accepts any text without a pattern and a matching text with one', () => {
    expect(promptError('', {})).toBeUndefined()
    expect(promptError('A-01', { pattern: '^[A-Za-z0-9_.-]{1,20}$' })).toBeUndefined()
    expect(promptError('42', { pattern: /^\d+$/g })).toBeUndefined()
    // A global pattern tested twice is not left at its last index.
    expect(promptError('42', { pattern: /^\d+$/g })).toBeUndefined()
  })

  it('refuses a text that does not match with the default message, or the given one', () => {
    expect(PROMPT_FORMAT_ERROR).toBe('输入格式错误')
    expect(promptError('a b', { pattern: '^\\S+$' })).toBe('输入格式错误')
    expect(promptError('abc', { pattern: '^\\d+$', message: '请输入数字' })).toBe('请输入数字')
  })

  it('refuses everything when the pattern itself is not valid', () => {
    expect(promptError('anything', { pattern: '([' })).toBe('输入格式错误')
  })

  it('reads a button script`s prompt request and drops what is not one', () => {
    expect(readButtonAction({ prompt: { title: '请输入单号', pattern: '^\\d+$', message: '单号只能是数字', extra: 1 } })).toEqual({
      prompt: { title: '请输入单号', pattern: '^\\d+$', message: '单号只能是数字' },
    })
    expect(readButtonAction({ prompt: { pattern: '^\\d+$' } })).toEqual({})
    expect(readButtonAction({ prompt: '请输入' })).toEqual({})
  })
})
