import pg from 'pg'
import type { Socket } from 'socket.io-client'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startCluster, type TestCluster } from '../support/cluster.js'
import { connectBus, disconnected, nextEvent } from '../support/bus-client.js'
import { BusEvent, type BusMessage, type PresenceEvent, type SysNoticeData } from '../../src/shared/contracts/bus.js'

const onPostgres = process.env.TEST_DB === 'postgres'

interface Answer<T = unknown> {
  status: number
  body: { code: number; msg: string; data: T }
}

async function call<T = unknown>(base: string, method: string, url: string, token?: string, body?: unknown): Promise<Answer<T>> {
  const response = await fetch(`${base}/cloud-api${url}`, {
    method,
    headers: { ...(token ? { 'x-auth-token': token } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Answer<T>['body'] }
}

async function login(base: string, username: string, password: string): Promise<string> {
  const r = await call<{ token: string }>(base, 'POST', '/auth/login', undefined, { username, password })
  if (r.status !== 200) throw new Error(`login ${username}: ${r.status} ${r.body.msg}`)
  return r.body.data.token
}

/**
 * Several server processes on one PostgreSQL (`npm run cluster`: 2 processes behind the round-robin
 * proxy). Only meaningful on PostgreSQL: SQLite deployments are one process by design, so on SQLite this
 * file is skipped. The scheduled-jobs check (a job due every second runs once per fire time across both
 * processes) belongs beside these, in its own describe block, using the same startCluster.
 */
describe.skipIf(!onPostgres)('two server processes on one PostgreSQL (skipped on SQLite: one process by design)', () => {
  let cluster: TestCluster
  let a: string
  let b: string
  let admin: string
  let clerk: string
  const sockets: Socket[] = []
  const socket = async (base: string, token: string) => {
    const s = await connectBus(base, token, 10_000)
    sockets.push(s)
    return s
  }

  beforeAll(async () => {
    cluster = await startCluster(2)
    ;[a, b] = cluster.workers
    admin = await login(a, 'admin', 'admin123456')
    const created = await call<string>(a, 'POST', '/system/user', admin, {
      code: 'cl01',
      name: '集群店员',
      username: 'clusterclerk',
      password: 'secret123',
      gender: 0,
      available: true,
    })
    expect(created.status, created.body.msg).toBe(200)
    clerk = await login(a, 'clusterclerk', 'secret123')
  }, 180_000)
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close()
  })
  afterAll(async () => cluster?.stop())

  it('recognises on B a user who signed in through A', async () => {
    const info = await call<{ user: { username: string } }>(b, 'GET', '/auth/info', clerk)
    expect(info.status).toBe(200)
    expect(info.body.data.user.username).toBe('clusterclerk')
  })

  it('delivers a notice published on A to sockets on B', async () => {
    const onB = await socket(b, clerk)
    const onA = await socket(a, admin)
    const gotB = nextEvent<BusMessage>(onB, BusEvent.sysNotice, (m) => (m.data as SysNoticeData).title === '集群通知', 10_000)
    const gotA = nextEvent<BusMessage>(onA, BusEvent.sysNotice, (m) => (m.data as SysNoticeData).title === '集群通知', 10_000)
    const r = await call<string>(a, 'POST', '/system/notice', admin, { title: '集群通知', content: '<p>两个进程</p>', published: true })
    expect(r.status, r.body.msg).toBe(200)
    const [onBMessage] = await Promise.all([gotB, gotA])
    expect(onBMessage.data).toMatchObject({ id: r.body.data, title: '集群通知' })
    // And B lists it from the shared table.
    const list = await call<{ datas: BusMessage[] }>(b, 'GET', '/message/bus/query?bizType=sysNotice', clerk)
    expect(list.body.data.datas.map((m) => (m.data as SysNoticeData).title)).toContain('集群通知')
  })

  it('tells a user on A that a colleague came online on B', async () => {
    const watcher = await socket(a, admin)
    const online = nextEvent<PresenceEvent>(watcher, BusEvent.userOnline, (p) => p.username === 'clusterclerk', 10_000)
    await socket(b, clerk)
    expect(await online).toMatchObject({ name: '集群店员', username: 'clusterclerk' })
  })

  it('ends on B the socket of a session that logs out through A', async () => {
    const token = await login(a, 'clusterclerk', 'secret123')
    const onB = await socket(b, token)
    const reason = disconnected(onB, 10_000)
    expect((await call(a, 'POST', '/auth/logout', token)).status).toBe(200)
    expect(await reason).toBe('io server disconnect')
    expect((await call(b, 'GET', '/auth/info', token)).status).toBe(401)
  })

  it('serves calls and the bus through the round-robin proxy, whichever process answers', async () => {
    const token = await login(cluster.proxy, 'clusterclerk', 'secret123')
    for (let i = 0; i < 4; i++) expect((await call(cluster.proxy, 'GET', '/auth/info', token)).status).toBe(200)
    const s1 = await socket(cluster.proxy, token)
    const s2 = await socket(cluster.proxy, admin)
    const got = Promise.all([s1, s2].map((s) => nextEvent<BusMessage>(s, BusEvent.sysNotice, (m) => (m.data as SysNoticeData).title === '经代理', 10_000)))
    expect((await call(cluster.proxy, 'POST', '/system/notice', admin, { title: '经代理', content: '<p>x</p>', published: true })).status).toBe(200)
    expect(await got).toHaveLength(2)
  })

  // Each process keeps the sessions it read for up to a minute (platform/session-cache.ts); a delete anywhere
  // must end them everywhere, however it was made.
  const refusedSoon = async (base: string, token: string) => {
    const deadline = Date.now() + 5_000
    for (;;) {
      const { status } = await call(base, 'GET', '/auth/info', token)
      if (status === 401 || Date.now() > deadline) return status
      await new Promise((r) => setTimeout(r, 20))
    }
  }

  it('refuses on B a session B had just served, once it logs out through A, and ever after', async () => {
    const token = await login(a, 'clusterclerk', 'secret123')
    for (let i = 0; i < 3; i++) expect((await call(b, 'GET', '/auth/info', token)).status).toBe(200)
    expect((await call(a, 'POST', '/auth/logout', token)).status).toBe(200)
    expect(await refusedSoon(b, token)).toBe(401)
    for (let i = 0; i < 3; i++) expect((await call(b, 'GET', '/auth/info', token)).status).toBe(401)
  })

  it('refuses on both processes a session whose row is deleted by hand in the database', async () => {
    const token = await login(a, 'clusterclerk', 'secret123')
    for (const base of [a, b]) expect((await call(base, 'GET', '/auth/info', token)).status).toBe(200)
    const client = new pg.Client({ connectionString: cluster.databaseUrl })
    await client.connect()
    try {
      expect((await client.query('delete from platform.sys_session where token = $1', [token])).rowCount).toBe(1)
    } finally {
      await client.end()
    }
    for (const base of [a, b]) expect(await refusedSoon(base, token)).toBe(401)
  })

  // Grants are cached a minute per process while it listens (platform/permissions.ts): a change through one
  // process reaches the others' caches by the grant tables' triggers, not by waiting.
  const statusSoon = async (base: string, url: string, token: string, want: number) => {
    const deadline = Date.now() + 5_000
    for (;;) {
      const r = await call(base, 'GET', url, token)
      if (r.status === want || Date.now() > deadline) return r.status
      await new Promise((r) => setTimeout(r, 20))
    }
  }

  it('gives and takes away on B a screen whose role changes through A', async () => {
    const brands = '/basedata/product/brand/query'
    expect((await call(b, 'GET', brands, clerk)).status).toBe(403)
    const role = await call<string>(a, 'POST', '/system/role', admin, { code: 'CLROLE', name: '集群角色', available: true })
    expect(role.status, role.body.msg).toBe(200)
    const users = await call<{ datas: { id: string }[] }>(a, 'GET', '/system/user/query?username=clusterclerk', admin)
    const userId = users.body.data.datas[0].id
    expect((await call(a, 'POST', '/system/user/role/setting', admin, { userIds: [userId], roleIds: [role.body.data] })).status).toBe(200)
    const menus = await call<{ id: string; permission: string | null }[]>(a, 'GET', `/system/role/menu/menus?roleId=${role.body.data}`, admin)
    const brandMenu = menus.body.data.find((m) => m.permission === 'base-data:product:brand:query')!
    const grant = (menuIds: string[]) => call(a, 'POST', '/system/role/menu/setting', admin, { roleIds: [role.body.data], menuIds })
    expect((await grant([brandMenu.id])).status).toBe(200)
    expect(await statusSoon(b, brands, clerk, 200)).toBe(200)
    expect((await grant([])).status).toBe(200)
    expect(await statusSoon(b, brands, clerk, 403)).toBe(403)
  })

  it('narrows and widens on B the products a user sees as their data permission changes through A (trees, departments)', async () => {
    const made = async (url: string, body: Record<string, unknown>, method = 'POST') => {
      const r = await call<string>(a, method, url, admin, body)
      expect(r.status, `${url}: ${r.body.msg}`).toBe(200)
      return r.body.data
    }
    const categoryId = await made('/basedata/product/category', { code: 'CLC', name: '集群类目', available: true })
    const brandId = await made('/basedata/product/brand', { code: 'CLB', name: '集群品牌', available: true })
    for (const code of ['CLA-1', 'CLB-1'])
      await made('/basedata/product', { code, name: `集群商品${code}`, skuCode: `SKU${code}`, categoryId, brandId, productType: 1, taxRate: 17, saleTaxRate: 17 })
    const userId = await made('/system/user', { code: 'cldp', name: '集群限权', username: 'clusterdp', password: 'secret123', gender: 0, available: true })
    const roleId = await made('/system/role', { code: 'CLDP', name: '集群限权角色', available: true })
    await made('/system/user/role/setting', { userIds: [userId], roleIds: [roleId] })
    const menus = await call<{ id: string; permission: string | null }[]>(a, 'GET', `/system/role/menu/menus?roleId=${roleId}`, admin)
    await made('/system/role/menu/setting', { roleIds: [roleId], menuIds: [menus.body.data.find((m) => m.permission === 'base-data:product:info:query')!.id] })
    const user = await login(a, 'clusterdp', 'secret123')
    const seenOnB = async () => {
      const r = await call<{ datas: { code: string }[] }>(b, 'GET', '/basedata/product/query?code=CL&sortField=code&pageSize=50', user)
      expect(r.status, r.body.msg).toBe(200)
      return r.body.data.datas.map((d) => d.code).filter((code) => code.startsWith('CL'))
    }
    /** What B shows once the change through A has reached it (a few ms: a trigger's notification). */
    const soonOnB = async (want: string[]) => {
      const deadline = Date.now() + 5_000
      let seen = await seenOnB()
      while (JSON.stringify(seen) !== JSON.stringify(want) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20))
        seen = await seenOnB()
      }
      return seen
    }
    // Code starts with `prefix` (detail 1 = product code, condition 9 = starts with).
    const startsWith = (prefix: string) => JSON.stringify([{ nodeType: 1, calcType: 1, name: '并且', children: [{ nodeType: 2, detailId: 1, conditionType: 9, value: prefix }] }])
    const save = (bizType: number, bizId: string, permission: string) => made('/system/data/permission/data/saveData', { bizIds: [bizId], bizType, permissionType: 1, permission })
    // B reads (and may keep) the user's data permission before each change.
    expect(await seenOnB()).toEqual(['CLA-1', 'CLB-1'])
    await save(0, roleId, startsWith('CLA-'))
    expect(await soonOnB(['CLA-1'])).toEqual(['CLA-1'])
    // A department's tree counts once the user is in it: the trees are AND-ed, and these two exclude each other.
    const deptId = await made('/system/dept', { code: 'CLD', name: '集群部门', shortName: '集群', available: true })
    await save(1, deptId, startsWith('CLB-'))
    expect(await seenOnB()).toEqual(['CLA-1'])
    await made('/system/user', { id: userId, deptIds: [deptId] }, 'PUT')
    expect(await soonOnB([])).toEqual([])
    await made('/system/user', { id: userId, deptIds: [] }, 'PUT')
    expect(await soonOnB(['CLA-1'])).toEqual(['CLA-1'])
    await save(0, roleId, '[]')
    expect(await soonOnB(['CLA-1', 'CLB-1'])).toEqual(['CLA-1', 'CLB-1'])
  })

  it('applies on B a configuration changed through A (销售参数设置)', async () => {
    const flagOnB = async () => (await call<{ outStockRequireLogistics: boolean }>(b, 'GET', '/sale/config', admin)).body.data.outStockRequireLogistics
    for (const value of [true, false]) {
      // B reads (and may keep) the configuration before each change.
      expect(await flagOnB()).toBe(!value)
      const saved = await call(a, 'PUT', '/sale/config', admin, { outStockRequireLogistics: value })
      expect(saved.status, saved.body.msg).toBe(200)
      const deadline = Date.now() + 5_000
      while ((await flagOnB()) !== value && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      expect(await flagOnB()).toBe(value)
    }
  })

  it('signs out on B the other sessions of a user whose password changes through A', async () => {
    const kept = await login(a, 'clusterclerk', 'secret123')
    const other = await login(b, 'clusterclerk', 'secret123')
    expect((await call(b, 'GET', '/auth/info', other)).status).toBe(200)
    const changed = await call(a, 'PATCH', '/center/password', kept, { oldPsw: 'secret123', newPsw: 'secret456', confirmPsw: 'secret456' })
    expect(changed.status, changed.body.msg).toBe(200)
    expect(await refusedSoon(b, other)).toBe(401)
    expect((await call(b, 'GET', '/auth/info', kept)).status).toBe(200)
  })
})
