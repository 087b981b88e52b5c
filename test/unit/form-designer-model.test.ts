import { describe, expect, it } from 'vitest'
import { fieldProblems, fromFormSchema, moveField, nameFromTitle, newField, outsideBounds, retitle, toFormSchema } from '../../src/client/lowcode/form-designer-model.js'
import { checkFormSchema } from '../../src/client/lowcode/formily-schema.js'

describe('form designer model', () => {
  const text = { ...newField('Input', []), name: 'customerName', title: '客户名称', span: 12, required: true, pattern: '^[^0-9]+$', patternMessage: '不能含数字', maxLength: 20 }
  const level = { ...newField('Select', ['customerName']), name: 'level', title: '客户等级', span: 6 }
  const dic = { ...newField('DataDicSelect', []), name: 'source', title: '来源', dicCode: 'CUSTOMER_SOURCE' }

  it('writes a 24-column FormGrid whose items carry span, rules, options and bindings, and passes the custom form whitelist', () => {
    const schema = toFormSchema([text, level, dic])
    expect(checkFormSchema(schema).ok).toBe(true)
    const grid = schema.properties!.grid
    expect(grid['x-component']).toBe('FormGrid')
    expect(grid['x-component-props']).toMatchObject({ minColumns: 24, maxColumns: 24 })
    expect(grid.properties!.customerName).toMatchObject({
      type: 'string',
      title: '客户名称',
      required: true,
      'x-decorator-props': { gridSpan: 12 },
      'x-component': 'Input',
      'x-validator': [{ pattern: '^[^0-9]+$', message: '不能含数字' }, { maxLength: 20, message: '客户名称不能超过20个字符' }],
    })
    expect(grid.properties!.level.enum).toEqual([{ label: '选项1', value: '1' }, { label: '选项2', value: '2' }])
    expect(grid.properties!.source['x-component-props']).toMatchObject({ dicCode: 'CUSTOMER_SOURCE' })
  })

  it('reads back what it wrote, in order, and reads a hand-written form as full-width fields', () => {
    expect(fromFormSchema(JSON.stringify(toFormSchema([level, text])))).toEqual([level, text])
    const hand = { type: 'object', properties: { remark: { type: 'string', title: '备注', 'x-decorator': 'FormItem', 'x-component': 'Input.TextArea' } } }
    expect(fromFormSchema(hand)).toMatchObject([{ name: 'remark', title: '备注', component: 'Input.TextArea', span: 24, required: false }])
    expect(fromFormSchema('{not json')).toEqual([])
  })

  it('names the problems that would make a broken form', () => {
    expect(fieldProblems([text, { ...level, name: 'customerName' }])).toEqual(['第2个字段（客户等级）：字段名【customerName】重复'])
    expect(fieldProblems([{ ...text, name: '1abc' }])[0]).toMatch(/字段名只能包含字母/)
    expect(fieldProblems([{ ...level, options: [] }])).toEqual(['第1个字段（客户等级）：请添加选项'])
    expect(fieldProblems([{ ...dic, dicCode: '' }])).toEqual(['第1个字段（来源）：请选择数据字典'])
    expect(fieldProblems([{ ...text, pattern: '([' }])).toEqual(['第1个字段（客户名称）：校验正则不正确'])
    expect(fieldProblems([{ ...newField('DatePicker', []), minDate: '2026-12-31', maxDate: '2026-01-01' }])).toEqual(['第1个字段（日期）：最早日期不能晚于最晚日期'])
    expect(moveField(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a'])
  })

  it('names a field from its label: camelCase pinyin, unique in the form, a leading letter', () => {
    expect(newField('Input', []).name).toBe('danHangWenBen')
    expect(newField('Input', ['danHangWenBen', 'danHangWenBen2']).name).toBe('danHangWenBen3')
    expect(nameFromTitle('客户名称', [])).toBe('keHuMingCheng')
    expect(nameFromTitle('Email 地址', [])).toBe('emailDiZhi')
    expect(nameFromTitle('VIP等级', [])).toBe('vipDengJi')
    expect(nameFromTitle('1号仓', [])).toBe('field1HaoCang')
    expect(nameFromTitle('？', ['field'])).toBe('field2')
    expect(nameFromTitle('绿色'.repeat(40), []).length).toBeLessThanOrEqual(64)
    for (const t of ['客户名称', 'Email 地址', '1号仓', '？', '绿色'.repeat(40)]) expect(fieldProblems([{ ...text, title: t, name: nameFromTitle(t, []) }])).toEqual([])
  })

  it('lets the name follow the title until the admin types one', () => {
    const a = newField('Input', [])
    const b = newField('Input', [a.name])
    let fields = retitle([a, b], b.name, '客户名称')
    expect(fields.map((f) => f.name)).toEqual(['danHangWenBen', 'keHuMingCheng'])
    fields = retitle(fields, 'danHangWenBen', '客户名称')
    expect(fields.map((f) => f.name)).toEqual(['keHuMingCheng2', 'keHuMingCheng'])
    fields = retitle(fields, 'keHuMingCheng2', '客户名称（备用）')
    expect(fields[0]).toMatchObject({ name: 'keHuMingChengBeiYong', title: '客户名称（备用）' })
    const typed = { ...fields[1], name: 'customer' }
    expect(retitle([typed], 'customer', '客户全称')[0]).toMatchObject({ name: 'customer', title: '客户全称' })
  })

  it('writes a date field\'s format, time, default today and range as picker props and reads them back', () => {
    const date = { ...newField('DatePicker', []), name: 'nextVisit', title: '下次跟进', showTime: true, dateFormat: 'YYYY-MM-DD HH:mm', defaultToday: true, minDate: '2026-01-01', maxDate: '2026-12-31' }
    const schema = toFormSchema([date])
    expect(checkFormSchema(schema).ok).toBe(true)
    expect(schema.properties!.grid.properties!.nextVisit['x-component-props']).toEqual({ 'aria-label': '下次跟进', format: 'YYYY-MM-DD HH:mm', showTime: true, defaultToday: true, minDate: '2026-01-01', maxDate: '2026-12-31' })
    expect(schema.properties!.grid.properties!.nextVisit['x-validator']).toBeUndefined()
    expect(fromFormSchema(schema)).toEqual([date])
    // a text keeps no date props
    expect(toFormSchema([{ ...text, showTime: true, minDate: '2026-01-01' }]).properties!.grid.properties!.customerName['x-component-props']).toEqual({ 'aria-label': '客户名称' })
  })

  it('refuses a day outside the designer\'s bounds, one date or a range, times included; blanks pass', () => {
    expect(outsideBounds('2019-12-31', '2020-01-01', '2020-12-31')).toBe('日期不能早于2020-01-01')
    expect(outsideBounds('2021-01-01 08:00:00', '2020-01-01', '2020-12-31')).toBe('日期不能晚于2020-12-31')
    expect(outsideBounds('2020-12-31 23:59:59', '2020-01-01', '2020-12-31')).toBeUndefined()
    expect(outsideBounds(['2020-02-01', '2021-02-01'], '2020-01-01', '2020-12-31')).toBe('日期不能晚于2020-12-31')
    expect(outsideBounds(['2020-02-01', '2020-03-01'], '2020-01-01')).toBeUndefined()
    expect(outsideBounds(undefined, '2020-01-01')).toBeUndefined()
    expect(outsideBounds('', undefined, '2020-01-01')).toBeUndefined()
  })
})
