import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4e80000000049454e44ae426082',
  'hex',
)

function multipart(filename: string, content: Buffer) {
  const boundary = '----erp-upload-boundary'
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

describe('shared uploaders and the map call', () => {
  let t: TestApp
  let token: string
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
  })
  afterAll(async () => t?.close())

  const upload = async (kind: 'image' | 'video', filename: string, content: Buffer) => {
    const { payload, headers } = multipart(filename, content)
    const r = await t.app.inject({ method: 'POST', url: `/cloud-api/component/upload/${kind}`, headers: { ...headers, 'x-auth-token': token }, payload })
    return JSON.parse(r.body) as { code: number; msg: string; data: string }
  }

  it('stores an image and a video and serves them back; refuses what they are not', async () => {
    const image = await upload('image', 'a.png', PNG)
    expect(image.data).toMatch(/^\/cloud-api\/component\/upload\/image\/1000\/image-[0-9a-f]{32}\.png$/)
    const file = await t.app.inject({ method: 'GET', url: image.data })
    expect(file.rawPayload.equals(PNG)).toBe(true)
    expect((await upload('image', 'a.jpg', PNG)).msg).toBe('只能上传png、jpeg、bmp、jpg、gif格式的图片！')
    expect((await upload('image', 'a.txt', Buffer.from('x'))).msg).toBe('只能上传png、jpeg、bmp、jpg、gif格式的图片！')
    const video = await upload('video', 'clip.mp4', Buffer.from('....ftypmp42'))
    expect(video.data).toMatch(/\/component\/upload\/video\/1000\/video-[0-9a-f]{32}\.mp4$/)
    expect((await upload('video', 'clip.exe', Buffer.from('MZ'))).msg).toMatch(/^只能上传avi、wmv/)
    expect((await t.app.inject({ method: 'GET', url: '/cloud-api/component/upload/image/1000/..%2F..%2Fapp.db' })).statusCode).toBe(404)
    // Without a token nothing is stored.
    const { payload, headers } = multipart('a.png', PNG)
    const anonymous = await t.app.inject({ method: 'POST', url: '/cloud-api/component/upload/image', headers, payload })
    expect(anonymous.statusCode).toBe(401)
  })

  it('answers the map call with a clear message (no map service in a closed deployment)', async () => {
    const r = await t.call('GET', '/component/map/location', { token, query: { address: '上海市浦东新区' } })
    expect(r.body.msg).toBe('未配置地图服务，无法解析地址')
  })
})
