import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { userWithMenus } from '../support/access-helpers.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

interface MyNotice {
  id: string
  title: string
  publishTime: string | null
  readed: boolean
}
interface Page<T> {
  totalCount: number
  datas: T[]
}
interface Notice {
  id: string
  title: string
  content: string
  published: boolean
  available: boolean
  publishTime: string | null
  readedNum: number | null
  unReadNum: number | null
}

describe('system notices: publish, my notices, read marks', () => {
  let t: TestApp
  let admin: string
  let clerk: string
  let published: string
  let draft: string

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    // A reader: granted the 系统通知 page only.
    clerk = await userWithMenus(t, admin, 'reader01', ['system:notice:query'])
  })
  afterAll(async () => t?.close())

  it('creates a published notice with its HTML sanitised and its read counters set', async () => {
    const html =
      '<p style="color: red" onclick="steal()">欢迎<script>alert(1)</script><img src="javascript:alert(2)" onerror="x()">' +
      '<a href="javascript:evil()">链接</a><a href="https://example.com/a" target="_blank">好链接</a></p><iframe src="//x"></iframe><b>粗体</b>' +
      '<span style="background:url(javascript:alert(3))">背景</span><svg onload="alert(4)"><circle/></svg>'
    const r = await t.call<string>('POST', '/system/notice', { token: admin, body: { title: '系统升级通知', content: html, published: true } })
    expect(r.status, r.raw).toBe(200)
    published = r.body.data
    const got = await t.call<Notice>('GET', '/system/notice', { token: admin, query: { id: published } })
    const n = got.body.data
    expect(n.content).not.toMatch(/script|onclick|onerror|onload|javascript:|iframe|svg|alert|url\(/)
    expect(n.content).toContain('<p style="color:red;">欢迎')
    expect(n.content).toContain('<span style>背景</span>')
    expect(n.content).toContain('<a href="https://example.com/a" target="_blank">好链接</a>')
    expect(n.content).toContain('<b>粗体</b>')
    expect(n).toMatchObject({ title: '系统升级通知', published: true, available: true, readedNum: 0, unReadNum: 2 })
    expect(n.publishTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  })

  it('refuses content that is empty once sanitised, and a missing title', async () => {
    const empty = await t.call('POST', '/system/notice', { token: admin, body: { title: 'x', content: '<script>alert(1)</script>' } })
    expect(empty.status).toBe(400)
    expect(empty.body.msg).toBe('请输入内容')
    const noTitle = await t.call('POST', '/system/notice', { token: admin, body: { content: '<p>x</p>' } })
    expect(noTitle.status).toBe(400)
    expect(noTitle.body.msg).toBe('请输入标题')
    const long = await t.call('POST', '/system/notice', { token: admin, body: { title: '长'.repeat(201), content: '<p>x</p>' } })
    expect(long.body.msg).toBe('标题长度不能超过200个字符')
  })

  it('keeps drafts out of everyone\'s notices', async () => {
    const r = await t.call<string>('POST', '/system/notice', { token: admin, body: { title: '草稿', content: '<p>未发布</p>' } })
    draft = r.body.data
    const got = await t.call<Notice>('GET', '/system/notice', { token: admin, query: { id: draft } })
    expect(got.body.data).toMatchObject({ published: false, publishTime: null, unReadNum: 0 })
    const mine = await t.call<Page<MyNotice>>('GET', '/system/notice/query/my', { token: clerk, query: { pageIndex: 1, pageSize: 20 } })
    expect(mine.body.data.datas.map((d) => d.title)).toEqual(['系统升级通知'])
    const content = await t.call('GET', '/system/notice/content', { token: clerk, query: { id: draft } })
    expect(content.status).toBe(404)
    expect(content.body.msg).toBe('系统通知不存在！')
  })

  it('lists my notices with a readed flag and filters unread ones (the bell poll)', async () => {
    const unread = await t.call<Page<MyNotice>>('GET', '/system/notice/query/my', {
      token: clerk,
      query: { pageIndex: 1, pageSize: 20, readed: false },
    })
    expect(unread.status).toBe(200)
    expect(unread.body.data.totalCount).toBe(1)
    expect(unread.body.data.datas[0]).toMatchObject({ id: published, title: '系统升级通知', readed: false })
    expect(Object.keys(unread.body.data.datas[0]).sort()).toEqual(['id', 'publishTime', 'readed', 'title'])
  })

  it('answers the content and marks it read once for the reader', async () => {
    const first = await t.call<{ id: string; title: string; content: string; readed: boolean }>('GET', '/system/notice/content', {
      token: clerk,
      query: { id: published },
    })
    expect(first.status).toBe(200)
    expect(first.body.data).toMatchObject({ id: published, title: '系统升级通知', readed: true })
    expect(first.body.data.content).toContain('欢迎')
    await t.call('GET', '/system/notice/content', { token: clerk, query: { id: published } })

    const unread = await t.call<Page<MyNotice>>('GET', '/system/notice/query/my', { token: clerk, query: { readed: false } })
    expect(unread.body.data.totalCount).toBe(0)
    const all = await t.call<Page<MyNotice>>('GET', '/system/notice/query/my', { token: clerk })
    expect(all.body.data.datas[0]).toMatchObject({ id: published, readed: true })
    const read = await t.call<Page<MyNotice>>('GET', '/system/notice/query/my', { token: clerk, query: { readed: 'true' } })
    expect(read.body.data.totalCount).toBe(1)

    // The admin has not read it: still unread for them; the counters moved once only.
    const adminUnread = await t.call<Page<MyNotice>>('GET', '/system/notice/query/my', { token: admin, query: { readed: false } })
    expect(adminUnread.body.data.datas.map((d) => d.id)).toEqual([published])
    const n = await t.call<Notice>('GET', '/system/notice', { token: admin, query: { id: published } })
    expect(n.body.data).toMatchObject({ readedNum: 1, unReadNum: 1 })
  })

  it('republishing on modify starts the reading afresh; disabling hides it', async () => {
    const put = await t.call('PUT', '/system/notice', {
      token: admin,
      body: { id: published, title: '系统升级通知（更新）', content: '<p>新内容</p>', published: true, available: true },
    })
    expect(put.status, put.raw).toBe(200)
    const mine = await t.call<Page<MyNotice>>('GET', '/system/notice/query/my', { token: clerk, query: { readed: false } })
    expect(mine.body.data.datas[0]).toMatchObject({ id: published, title: '系统升级通知（更新）', readed: false })
    const n = await t.call<Notice>('GET', '/system/notice', { token: admin, query: { id: published } })
    expect(n.body.data).toMatchObject({ readedNum: 0, unReadNum: 2 })

    await t.call('PUT', '/system/notice', { token: admin, body: { id: published, available: false } })
    const hidden = await t.call<Page<MyNotice>>('GET', '/system/notice/query/my', { token: clerk })
    expect(hidden.body.data.totalCount).toBe(0)
    // The publisher may still open it (no read mark).
    const peek = await t.call<{ readed: boolean }>('GET', '/system/notice/content', { token: admin, query: { id: published } })
    expect(peek.status).toBe(200)
    expect(peek.body.data.readed).toBe(false)
  })

  it('lists notices for the publish page only, filtered', async () => {
    const list = await t.call<Page<Notice>>('GET', '/system/notice/query', { token: admin, query: { published: false } })
    expect(list.status).toBe(200)
    expect(list.body.data.datas.map((d) => d.id)).toEqual([draft])
    for (const [method, url] of [
      ['GET', '/system/notice/query'],
      ['GET', `/system/notice?id=${draft}`],
      ['POST', '/system/notice'],
      ['PUT', '/system/notice'],
    ] as const) {
      const r = await t.call(method, url, { token: clerk, body: method === 'GET' ? undefined : { id: draft, title: 'x', content: 'y' } })
      expect(r.status, `${method} ${url}`).toBe(403)
    }
  })

  it('checks its inputs without a 5xx', async () => {
    expect((await t.call('GET', '/system/notice/content', { token: clerk })).body.msg).toBe('id不能为空！')
    expect((await t.call('GET', '/system/notice/content', { token: clerk, query: { id: 'nope' } })).status).toBe(404)
    expect((await t.call('GET', '/system/notice/query/my', { token: clerk, query: { readed: 'maybe' } })).status).toBe(400)
    expect((await t.call('GET', '/system/notice/query/my', { token: clerk, query: { pageIndex: 'x', pageSize: -3, title: "%'_" } })).status).toBe(200)
    expect((await t.call('GET', '/system/notice/query/my')).status).toBe(401)
  })
})
