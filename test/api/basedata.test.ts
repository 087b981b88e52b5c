import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4e80000000049454e44ae426082',
  'hex',
)

function multipart(filename: string, content: Buffer, type = 'application/octet-stream') {
  const boundary = '----erp-test-boundary'
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

describe('base data: pay type logo upload, city picker', () => {
  let t: TestApp
  let token: string
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
  })
  afterAll(async () => t?.close())

  const upload = async (filename: string, content: Buffer, type?: string) => {
    const { payload, headers } = multipart(filename, content, type)
    const r = await t.app.inject({ method: 'POST', url: '/cloud-api/basedata/paytype/upload/logo', headers: { ...headers, 'x-auth-token': token }, payload })
    return { status: r.statusCode, body: JSON.parse(r.body) as { code: number; msg: string; data: string } }
  }

  it('stores a png logo and serves it back from the answered URL', async () => {
    const r = await upload('微信.PNG', PNG, 'image/png')
    expect(r.status).toBe(200)
    expect(r.body.data).toMatch(/^\/cloud-api\/basedata\/paytype\/logo\/[\w-]+\/logo-[0-9a-f]{32}\.png$/)
    const file = await t.app.inject({ method: 'GET', url: r.body.data })
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toBe('image/png')
    expect(file.rawPayload.equals(PNG)).toBe(true)

    // The URL goes into the pay type's logo.
    const id = await t.call<string>('POST', '/basedata/paytype', { token, body: { code: '101', name: '银联', recText: false, logo: r.body.data } })
    expect(id.body.msg).toBe('操作成功！')
  })

  it('accepts only png, jpeg, bmp, jpg and gif, checked by extension and content, up to 1 MB', async () => {
    const text = await upload('logo.txt', Buffer.from('hello'))
    expect(text.status).toBe(400)
    expect(text.body.msg).toBe('只能上传png、jpeg、bmp、jpg、gif格式的图片！')
    const svg = await upload('logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml')
    expect(svg.body.msg).toBe('只能上传png、jpeg、bmp、jpg、gif格式的图片！')
    const disguised = await upload('logo.png', Buffer.from('<html><script>alert(1)</script></html>'))
    expect(disguised.body.msg).toBe('只能上传png、jpeg、bmp、jpg、gif格式的图片！')
    const gif = await upload('logo.gif', Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32)]))
    expect(gif.body.msg).toBe('操作成功！')
    const big = await upload('big.png', Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]))
    expect(big.status).toBe(400)
    expect(big.body.msg).toBe('图片大小不能超过1MB！')
    const none = await t.call('POST', '/basedata/paytype/upload/logo', { token, body: {} })
    expect(none.status).toBe(400)
    expect(none.body.msg).toBe('请选择要上传的图片！')
  })

  it('does not serve names outside the upload folder', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/cloud-api/basedata/paytype/logo/1000/..%2F..%2Fapp.db' })
    expect(r.statusCode).toBe(404)
  })

  it('answers the region tree as rows {id: code, code, name, parentId}', async () => {
    const provinces = await t.call<{ totalCount: number; datas: { id: string; code: string; name: string; parentId: string | null }[] }>('GET', '/selector/city', {
      token,
      query: { parentId: '0' },
    })
    expect(provinces.body.data.totalCount).toBe(31)
    expect(provinces.body.data.datas[0]).toMatchObject({ id: '11', code: '11', name: '北京市', parentId: null })
    const all = await t.call<{ totalCount: number }>('GET', '/selector/city', { token })
    expect(all.body.data.totalCount).toBeGreaterThan(3000)
    const page = await t.call<{ datas: unknown[] }>('GET', '/selector/city', { token, query: { name: '区', pageIndex: 2, pageSize: 10 } })
    expect(page.body.data.datas).toHaveLength(10)

    const loaded = await t.call<{ id: string; name: string; parentId: string }[]>('POST', '/selector/city/load', { token, body: ['110101', '4403', 'nope'] })
    expect(loaded.body.data).toEqual([
      expect.objectContaining({ id: '110101', name: '东城区', parentId: '1101' }),
      expect.objectContaining({ id: '4403', name: '深圳市', parentId: '44' }),
    ])
  })
})
