import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

const EN = { 'accept-language': 'en-US,en;q=0.9' }
const HK = { 'accept-language': 'zh-HK' }
const CN = { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' }

describe('languages: server messages in the request language', () => {
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
  })
  afterAll(async () => t?.close())

  it('answers a missing token in English and Traditional Chinese, and Simplified exactly as the spec words it', async () => {
    const en = await t.call('GET', '/auth/info', { headers: EN })
    expect(en.status).toBe(401)
    expect(en.body).toMatchObject({ code: 401, msg: 'Please sign in first!' })
    const hk = await t.call('GET', '/auth/info', { headers: HK })
    expect(hk.body.msg).toBe('請先登錄！')
    const cn = await t.call('GET', '/auth/info', { headers: CN })
    expect(cn.body.msg).toBe('请先登录！')
    // No header: the wire contract's text.
    expect((await t.call('GET', '/auth/info')).body.msg).toBe('请先登录！')
  })

  it('translates a field validation message with its label, and the success message', async () => {
    const body = { code: `L${Date.now() % 1e8}`, name: '' }
    const en = await t.call('POST', '/basedata/product/brand', { token: admin, body, headers: EN })
    expect(en.status).toBe(400)
    expect(en.body.msg).toBe('Please enter Name')
    const hk = await t.call('POST', '/basedata/product/brand', { token: admin, body, headers: HK })
    expect(hk.body.msg).toBe('請輸入名稱')
    const cn = await t.call('POST', '/basedata/product/brand', { token: admin, body, headers: CN })
    expect(cn.body.msg).toBe('请输入名称')
    const ok = await t.call('POST', '/basedata/product/brand', { token: admin, body: { ...body, name: '语言品牌' }, headers: EN })
    expect(ok.body).toMatchObject({ code: 200, msg: 'Done!' })
    const dup = await t.call('POST', '/basedata/product/brand', { token: admin, body: { ...body, name: '语言品牌2' }, headers: EN })
    expect(dup.body.msg).toBe('Code already exists; enter another')
  })

  it('translates a document line message with its row number and the line field label', async () => {
    const body = { warehouseId: 'none', supplierId: 'none', products: [{ productId: 'none', orderNum: 'x', taxPrice: '1' }] }
    const cn = await t.call('POST', '/purchase/order', { token: admin, body })
    expect(cn.status).toBe(400)
    expect(cn.body.msg).toBe('第1行商品采购数量必须为整数')
    const en = await t.call('POST', '/purchase/order', { token: admin, body, headers: EN })
    expect(en.body.msg).toBe('Row 1 (product): Purchase quantity must be an integer')
    const hk = await t.call('POST', '/purchase/order', { token: admin, body, headers: HK })
    expect(hk.body.msg).toBe('第1行商品採購數量必須為整數')
  })

  it('answers the sign-in checks in the chosen language', async () => {
    const login = await t.call('POST', '/auth/login', { body: { username: 'admin', password: '' }, headers: EN })
    expect(login.body.msg).toBe('Please enter the password')
    const hk = await t.call('POST', '/auth/login', { body: { username: 'admin', password: '' }, headers: HK })
    expect(hk.body.msg).toBe('請輸入密碼')
  })
})
