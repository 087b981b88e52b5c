import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { buildLowcodeFixture } from '../support/lowcode-fixtures.js'

/**
 * Stored scripts are compiled in the sandbox when saved: a syntax error is refused with its line and
 * column (counted in the text the admin typed), and nothing of the refused save is written.
 */
describe('low-code scripts are compiled on save', () => {
  let t: TestApp
  let token: string
  let fx: Awaited<ReturnType<typeof buildLowcodeFixture>>
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    fx = await buildLowcodeFixture(t, token)
  })
  afterAll(async () => t?.close())

  const refused = async (url: string, body: Record<string, unknown>, msg: string, method: 'POST' | 'PUT' = 'POST') => {
    const r = await t.call(method, url, { token, body })
    expect(r.status, JSON.stringify(r.body)).toBe(400)
    expect(r.body.msg).toBe(msg)
  }

  it('refuses a list formatter, a button script and a request-param script that do not compile', async () => {
    const fields = fx.listBody.fields as Record<string, unknown>[]
    await refused(
      '/gen/custom/list',
      { ...fx.listBody, name: '坏格式化', fields: [fields[0], { ...fields[1], formatter: 'const a = 1\nreturn a +* cellValue' }] },
      "第2个列表字段：格式化脚本编译失败：SyntaxError: unexpected token in expression: '*'（第 2 行第 11 列）",
    )
    await refused(
      '/gen/custom/list',
      { ...fx.listBody, name: '坏按钮', toolbars: [{ name: '执行', viewType: 'primary', btnType: 3, btnConfig: 'return { message: "x" ' }] },
      "第1个工具栏按钮：按钮配置脚本编译失败：SyntaxError: expecting ';'（第 1 行第 23 列）",
    )
    await refused(
      '/gen/custom/list',
      { ...fx.listBody, name: '坏参数', handleColumns: [{ name: '表单', viewType: 'link', btnType: 2, btnConfig: fx.formId, requestParam: '\n\nreturn { id: row.c_id, }}', width: 100 }] },
      "第1个操作列按钮：请求参数脚本编译失败：SyntaxError: expecting ')'（第 3 行第 26 列）",
    )
    // the original list is untouched by a refused modify
    await refused('/gen/custom/list', { ...fx.listBody, id: fx.listId, fields: [{ ...fields[0], formatter: 'return (' }] }, "第1个列表字段：格式化脚本编译失败：SyntaxError: unexpected token in expression: '}'（第 1 行第 9 列）", 'PUT')
    const cfg = await t.call<{ listConfig: { fields: { formatter: string | null }[] } }>('GET', '/gen/api/custom/list/config', { token, query: { id: fx.listId } })
    expect(cfg.body.data.listConfig.fields[0].formatter).toBe((fields[0] as { formatter?: string }).formatter ?? null)
  })

  it('accepts scripts that compile, whatever they would do at run time', async () => {
    const fields = fx.listBody.fields as Record<string, unknown>[]
    const id = await fx.created('/gen/custom/list', {
      ...fx.listBody,
      name: '好脚本',
      fields: [{ ...fields[0], formatter: '(v, row) => v + "-" + row.p_name' }, { ...fields[1], formatter: 'return cellValue.toUpperCase()' }],
      toolbars: [{ name: '执行', viewType: 'primary', btnType: 3, btnConfig: 'return { message: _this.total + "条", reload: true }' }],
    })
    expect(id).toMatch(/\S/)
  })

  it('refuses form hooks and a page config that do not compile, and keeps the stored ones', async () => {
    const formConfig = JSON.stringify({ type: 'object', properties: { title: { type: 'string' } } })
    await refused('/gen/custom/form', { name: '坏钩子', formConfig, prefixSubmit: 'if (formData.a > 1 {\n  return false\n}' }, "提交前脚本编译失败：SyntaxError: expecting ')'（第 1 行第 20 列）")
    await refused('/gen/custom/form', { name: '坏钩子', formConfig, suffixSubmit: 'return true;\nlet let = 1' }, '提交后脚本编译失败：SyntaxError: variable name expected（第 2 行第 5 列）')
    const pageId = await fx.created('/gen/custom/page', { name: '好页面', componentConfig: 'return { title: "ok" }' })
    await refused('/gen/custom/page', { id: pageId, name: '好页面', componentConfig: 'return {\n  title: "ok",\n  x: ]\n}' }, "组件配置编译失败：SyntaxError: unexpected token in expression: ']'（第 3 行第 6 列）", 'PUT')
    const page = await t.call<{ componentConfig: string }>('GET', '/gen/api/custom/page/config', { token, query: { id: pageId } })
    expect(page.body.data.componentConfig).toBe('return { title: "ok" }')
  })
})
