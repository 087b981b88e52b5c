import { describe, expect, it } from 'vitest'
import { asRequestParam, buttonAction, buttonLook } from '../../src/client/lowcode/button-action.js'

describe('custom list buttons', () => {
  it('maps every button type to what the host does', () => {
    expect(buttonAction({ btnType: 0, btnConfig: 'https://example.com/a' }, 'toolbar')).toEqual({ kind: 'external', url: 'https://example.com/a' })
    expect(buttonAction({ btnType: 1, btnConfig: '/basedata/product' }, 'toolbar')).toEqual({ kind: 'route', path: '/basedata/product' })
    expect(buttonAction({ btnType: 2, btnConfig: 'F1', requestParam: 'return { id: row.c_id }' }, 'row')).toEqual({
      kind: 'form',
      formId: 'F1',
      paramScript: 'return { id: row.c_id }',
      params: ['row'],
    })
    expect(buttonAction({ btnType: 2, btnConfig: 'F1', requestParam: '  ' }, 'toolbar')).toEqual({ kind: 'form', formId: 'F1', paramScript: undefined, params: ['_this'] })
    expect(buttonAction({ btnType: 3, btnConfig: 'return "ok"' }, 'row')).toEqual({ kind: 'script', script: 'return "ok"', params: ['_this'] })
  })

  it('refuses links that would run code or leave the app unexpectedly, and empty configs', () => {
    expect(buttonAction({ btnType: 0, btnConfig: 'javascript:alert(1)' }, 'toolbar').kind).toBe('invalid')
    expect(buttonAction({ btnType: 1, btnConfig: '//evil.example' }, 'toolbar').kind).toBe('invalid')
    expect(buttonAction({ btnType: 2, btnConfig: '' }, 'row').kind).toBe('invalid')
    expect(buttonAction({ btnType: 3, btnConfig: null }, 'row').kind).toBe('invalid')
    expect(buttonAction({ btnType: 9, btnConfig: 'x' }, 'row').kind).toBe('invalid')
  })

  it('maps the six view types to antd buttons', () => {
    expect(buttonLook('primary')).toEqual({ type: 'primary', danger: false })
    expect(buttonLook('default')).toEqual({ type: 'default', danger: false })
    expect(buttonLook('dashed')).toEqual({ type: 'dashed', danger: false })
    expect(buttonLook('danger')).toEqual({ type: 'primary', danger: true })
    expect(buttonLook('link')).toEqual({ type: 'link', danger: false })
    expect(buttonLook('link-danger')).toEqual({ type: 'link', danger: true })
    expect(buttonLook(undefined)).toEqual({ type: 'default', danger: false })
  })

  it('takes only an object as request params', () => {
    expect(asRequestParam({ id: '1' })).toEqual({ id: '1' })
    expect(asRequestParam([1])).toBeUndefined()
    expect(asRequestParam('x')).toBeUndefined()
    expect(asRequestParam(null)).toBeUndefined()
  })
})
