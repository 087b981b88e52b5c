import { describe, expect, it } from 'vitest'
import { rmbCapitals } from '../../src/shared/print/rmb-capitals.js'

describe('人民币大写', () => {
  it('writes the issue example and whole yuan with 整', () => {
    expect(rmbCapitals('12345.67')).toBe('壹万贰仟叁佰肆拾伍元陆角柒分')
    expect(rmbCapitals('10.00')).toBe('壹拾元整')
    expect(rmbCapitals('20000')).toBe('贰万元整')
    expect(rmbCapitals(0)).toBe('零元整')
    expect(rmbCapitals('-0.001')).toBe('零元整')
  })
  it('writes one 零 for a run of zeros, within and across 万 and 亿', () => {
    expect(rmbCapitals('1001.01')).toBe('壹仟零壹元零壹分')
    expect(rmbCapitals('100010001.1')).toBe('壹亿零壹万零壹元壹角')
    expect(rmbCapitals('1000000.00')).toBe('壹佰万元整')
    expect(rmbCapitals('100000000')).toBe('壹亿元整')
    expect(rmbCapitals('99999999.99')).toBe('玖仟玖佰玖拾玖万玖仟玖佰玖拾玖元玖角玖分')
    expect(rmbCapitals('123456789012.34')).toBe('壹仟贰佰叁拾肆亿伍仟陆佰柒拾捌万玖仟零壹拾贰元叁角肆分')
  })
  it('writes 角 and 分 alone, and rounds half up to the fen exactly', () => {
    expect(rmbCapitals('0.5')).toBe('伍角')
    expect(rmbCapitals('0.05')).toBe('伍分')
    expect(rmbCapitals('3.005')).toBe('叁元零壹分')
    expect(rmbCapitals('0.285')).toBe('贰角玖分')
  })
  it('begins a negative amount with 负', () => {
    expect(rmbCapitals('-12.30')).toBe('负壹拾贰元叁角')
    expect(rmbCapitals('-10000')).toBe('负壹万元整')
  })
})
