import { describe, expect, it } from 'vitest'
import { checkPageSchema } from '../../src/client/lowcode/page-schema.js'
import { checkFormSchema } from '../../src/client/lowcode/formily-schema.js'

describe('custom page schema', () => {
  it('accepts rows of columns with list, form, chart and text blocks and drops unknown members', () => {
    const r = checkPageSchema({
      title: '概览',
      rows: [
        {
          cols: [
            { span: 12, blocks: [{ kind: 'list', listId: 'L1', title: '商品', extra: '<b>x</b>' }] },
            { span: 12, blocks: [{ kind: 'form', formId: 'F1', requestParam: { id: '1' } }] },
          ],
        },
        { gutter: 8, cols: [{ blocks: [{ kind: 'chart', chartType: 'bar', categories: ['一月'], series: [{ name: '销售额', data: [12] }] }, { kind: 'text', format: 'markdown', content: '## 标题' }] }] },
      ],
      render: 'ignored',
    })
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.schema.rows[0].cols[0].blocks[0]).toEqual({ kind: 'list', listId: 'L1', title: '商品' })
    expect(r.schema.rows[1].cols[0].blocks[1]).toEqual({ kind: 'text', format: 'markdown', content: '## 标题', title: undefined })
    expect(r.schema).not.toHaveProperty('render')
  })

  it('refuses what is not a page, with the path of each problem', () => {
    expect(checkPageSchema('<div>')).toEqual({ ok: false, errors: ['页面脚本必须返回对象'] })
    const r = checkPageSchema({
      rows: [
        {
          cols: [
            { span: 30, blocks: [{ kind: 'html', html: '<script>' }] },
            { blocks: [{ kind: 'list', listId: "1' or 1=1" }, { kind: 'chart', chartType: 'bar', series: [{ name: 'a', data: ['1'] }] }, { kind: 'text', content: 5 }] },
          ],
        },
      ],
    })
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.errors).toEqual([
      'rows[0].cols[0].span：必须是1到24的整数',
      'rows[0].cols[0].blocks[0].kind：只能是 list、form、chart 或 text',
      'rows[0].cols[1].blocks[0].listId：请填写自定义列表ID',
      'rows[0].cols[1].blocks[1].series[0]：需要 name 与数字数组 data',
      'rows[0].cols[1].blocks[2].content：必须是文本',
    ])
  })

  it('limits the number of blocks', () => {
    const blocks = Array.from({ length: 51 }, () => ({ kind: 'text', content: 'x' }))
    const r = checkPageSchema({ rows: [{ cols: [{ blocks }] }] })
    expect(r).toEqual({ ok: false, errors: ['区块数量不能超过50个'] })
  })
})

describe('custom form schema', () => {
  it('accepts whitelisted Formily components', () => {
    const r = checkFormSchema(JSON.stringify({ type: 'object', properties: { description: { type: 'string', title: '备注', 'x-decorator': 'FormItem', 'x-component': 'Input.TextArea' } } }))
    expect(r.ok).toBe(true)
  })

  it('refuses components outside the whitelist, expressions and reactions', () => {
    const r = checkFormSchema({
      type: 'object',
      properties: {
        a: { type: 'string', 'x-component': 'iframe' },
        b: { type: 'string', 'x-component': 'Input', 'x-component-props': { placeholder: '{{ fetch("/x") }}' } },
        c: { type: 'string', 'x-component': 'Input', 'x-reactions': { fulfill: { run: 'alert(1)' } } },
      },
    })
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.errors).toEqual([
      '$.properties.a.x-component：不支持的组件 iframe',
      '$.properties.b.x-component-props.placeholder：不允许使用表达式 {{ }}',
      '$.properties.c.x-reactions：不允许的配置项',
    ])
    expect(checkFormSchema('{bad').ok).toBe(false)
    expect(checkFormSchema({ type: 'array' })).toEqual({ ok: false, errors: ['根节点的 type 必须是 object'] })
  })
})
