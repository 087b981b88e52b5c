import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

/**
 * `GET /component/map/location` and `GET /system/user/dingTalkDataSync` against a stand-in of AMap's and
 * DingTalk's HTTP APIs on a local port (MAP_BASE_URL, DINGTALK_BASE_URL), and without configuration.
 */
interface Seen {
  path: string
  query: URLSearchParams
  body: string
}

function standIn(answer: (seen: Seen) => unknown): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = []
  const server = createServer((req: IncomingMessage, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x')
      const s = { path: url.pathname, query: url.searchParams, body }
      seen.push(s)
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(answer(s)))
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen })))
}

const close = (s?: Server) => new Promise<void>((resolve) => (s ? s.close(() => resolve()) : resolve()))

const DEPTS: Record<number, { dept_id: number; name: string }[]> = {
  1: [{ dept_id: 10, name: '销售部' }, { dept_id: 20, name: '仓储部' }],
  10: [{ dept_id: 11, name: '华东销售组' }],
  11: [],
  20: [],
}

describe('map location and DingTalk sync: configurable, honest when absent', () => {
  let plain: TestApp
  let configured: TestApp
  let token: string
  let configuredToken: string
  let amap: Awaited<ReturnType<typeof standIn>>
  let dingTalk: Awaited<ReturnType<typeof standIn>>
  let deptNames = DEPTS
  beforeAll(async () => {
    amap = await standIn(({ query }) =>
      query.get('key') !== 'good-key'
        ? { status: '0', info: 'INVALID_USER_KEY' }
        : query.get('address') === '无此地址'
          ? { status: '1', count: '0', geocodes: [] }
          : { status: '1', count: '1', geocodes: [{ formatted_address: '浙江省杭州市西湖区文三路', province: '浙江省', city: '杭州市', district: '西湖区', location: '120.131,30.278' }] },
    )
    dingTalk = await standIn(({ path, query, body }) => {
      if (path === '/gettoken') return query.get('appsecret') === 'secret' ? { errcode: 0, access_token: 'tok' } : { errcode: 40089, errmsg: 'invalid appkey or appsecret' }
      if (path === '/topapi/v2/department/listsub' && query.get('access_token') === 'tok')
        return { errcode: 0, result: deptNames[(JSON.parse(body) as { dept_id: number }).dept_id] ?? [] }
      return { errcode: 88, errmsg: 'no' }
    })
    plain = await startTestApp()
    token = await plain.login()
    configured = await startTestApp({
      env: { MAP_KEY: 'good-key', MAP_BASE_URL: amap.url, DINGTALK_APP_KEY: 'app', DINGTALK_APP_SECRET: 'secret', DINGTALK_BASE_URL: dingTalk.url },
    })
    configuredToken = await configured.login()
  })
  afterAll(async () => {
    await plain?.close()
    await configured?.close()
    await close(amap?.server)
    await close(dingTalk?.server)
  })

  interface Dept {
    id: string
    code: string
    name: string
    parentId: string | null
    children?: Dept[]
  }
  const flat = (nodes: Dept[]): Dept[] => nodes.flatMap(({ children, ...d }) => [d, ...flat(children ?? [])])
  const depts = async (t: TestApp, tk: string) => {
    const r = await t.call<Dept[]>('GET', '/system/dept/trees', { token: tk })
    expect(r.body.code).toBe(200)
    return flat(r.body.data)
  }

  it('without configuration both answer what is missing and write nothing', async () => {
    const map = await plain.call('GET', '/component/map/location', { token, query: { address: '杭州市文三路' } })
    expect(map.status).toBe(400)
    expect(map.body.msg).toBe('未配置地图服务，无法解析地址')
    const before = await depts(plain, token)
    const sync = await plain.call('GET', '/system/user/dingTalkDataSync', { token })
    expect(sync.body.msg).toBe('未配置钉钉应用，无法同步')
    expect(await depts(plain, token)).toEqual(before)
  })

  it('geocodes an address through the configured map service', async () => {
    const r = await configured.call('GET', '/component/map/location', { token: configuredToken, query: { address: ' 杭州市文三路 ' } })
    expect(r.body).toMatchObject({ code: 200, data: { address: '浙江省杭州市西湖区文三路', lng: 120.131, lat: 30.278, province: '浙江省', city: '杭州市', district: '西湖区' } })
    expect(amap.seen.at(-1)!.query.get('address')).toBe('杭州市文三路')
    const none = await configured.call('GET', '/component/map/location', { token: configuredToken, query: { address: '无此地址' } })
    expect(none.body.msg).toBe('未找到该地址的位置')
    const blank = await configured.call('GET', '/component/map/location', { token: configuredToken, query: { address: ' ' } })
    expect(blank.body.msg).toBe('请输入地址')
  })

  it('syncs DingTalk departments with their tree, and a second sync updates instead of duplicating', async () => {
    const first = await configured.call<{ created: number; updated: number }>('GET', '/system/user/dingTalkDataSync', { token: configuredToken })
    expect(first.body.data).toEqual({ created: 3, updated: 0 })
    let rows = await depts(configured, configuredToken)
    const byCode = (code: string) => rows.find((d) => d.code === code)
    expect(byCode('DD10')).toMatchObject({ name: '销售部' })
    expect(byCode('DD11')).toMatchObject({ name: '华东销售组', parentId: byCode('DD10')!.id })
    deptNames = { ...DEPTS, 1: [{ dept_id: 10, name: '销售中心' }, { dept_id: 20, name: '仓储部' }] }
    const second = await configured.call<{ created: number; updated: number }>('GET', '/system/user/dingTalkDataSync', { token: configuredToken })
    expect(second.body.data).toEqual({ created: 0, updated: 3 })
    rows = await depts(configured, configuredToken)
    expect(rows.filter((d) => d.code.startsWith('DD'))).toHaveLength(3)
    expect(byCode('DD10')).toMatchObject({ name: '销售中心' })
  })

  it('a DingTalk service that is down or refuses the app changes nothing and says so', async () => {
    const before = await depts(configured, configuredToken)
    const down = await startTestApp({ env: { DINGTALK_APP_KEY: 'app', DINGTALK_APP_SECRET: 'secret', DINGTALK_BASE_URL: 'http://127.0.0.1:9' } })
    try {
      const r = await down.call('GET', '/system/user/dingTalkDataSync', { token: await down.login() })
      expect(r.body.msg).toBe('钉钉服务请求失败，请稍后重试')
    } finally {
      await down.close()
    }
    const refused = await startTestApp({ env: { DINGTALK_APP_KEY: 'app', DINGTALK_APP_SECRET: 'wrong', DINGTALK_BASE_URL: dingTalk.url, MAP_KEY: 'bad', MAP_BASE_URL: amap.url } })
    try {
      const tk = await refused.login()
      expect((await refused.call('GET', '/system/user/dingTalkDataSync', { token: tk })).body.msg).toBe('钉钉应用拒绝了请求，请检查AppKey和AppSecret')
      expect((await refused.call('GET', '/component/map/location', { token: tk, query: { address: '杭州' } })).body.msg).toBe('地图服务拒绝了请求，请检查地图服务Key')
    } finally {
      await refused.close()
    }
    expect(await depts(configured, configuredToken)).toEqual(before)
  })
})
