import { describe, expect, it } from 'vitest'
import { formLabelWidth, MAX_LABEL_WIDTH } from '../../src/client/runtime/form-label-width.js'

/** 14 px a character, as a CJK font draws them. */
const measure = (text: string) => [...text].length * 14

describe('the label column of a form', () => {
  it('keeps the declared width when every label fits', () => {
    expect(formLabelWidth(['名称', '主表别名'], 100, measure)).toBe(100)
  })
  it('widens to the longest label while that stays under the cap', () => {
    expect(formLabelWidth(['名称', '自定义查询字段'], 100, measure)).toBe(7 * 14 + 26)
  })
  it('lets a very long label take two lines rather than squeeze the inputs', () => {
    const width = formLabelWidth(['Whether the list may be exported to a workbook'], 100, (t) => t.length * 7)
    expect(width).toBeLessThanOrEqual(MAX_LABEL_WIDTH)
    expect(width).toBeGreaterThan(100)
  })
})
