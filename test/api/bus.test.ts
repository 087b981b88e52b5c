import type { AddressInfo } from 'node:net'
import type { Socket } from 'socket.io-client'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { startServerProcess, type ServerProcess } from '../support/server-process.js'
import { connectBus, disconnected, nextEvent, pause, recorder } from '../support/bus-client.js'
import { publishToUser } from '../../src/server/realtime/publish.js'
import { inTransaction } from '../../src/server/platform/db-tx.js'
import { sendPersonalNotice } from '../../src/server/platform/notices.js'
import { BusEvent, type BusMessage, type PresenceEvent, type SysNoticeData } from '../../src/shared/contracts/bus.js'

interface Page<T> {
  pageIndex: number
  pageSize: number
  totalCount: number
  datas: T[]
}

/** How long a test waits to be sure an event did NOT come (the same process emits within milliseconds). */
const QUIET_MS = 400

/**
 * The realtime bus on the real server listening on a port: the handshake signs in with the session token,
 * events reach the right rooms only, ended sessions lose their sockets, and `/message/bus/query` lists
 * what was sent. Tenant 2000 is a second tenant whose users must never hear tenant 1000.
 */
describe('message bus', () => {
  let t: TestApp
  let base: string
  let admin: string
  let clerk: string
  let clerkId: string
  let other: string
  const open: Socket[] = []
  const connect = async (token: string | undefined) => {
    const s = await connectBus(base, token)
    open.push(s)
    return s
  }

  beforeAll(async () => {
    t = await startTestApp()
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    admin = await t.login()
    const user = await t.call<string>('POST', '/system/user', {
      token: admin,
      body: { code: 'bus01', name: '总线店员', username: 'busclerk', password: 'secret123', gender: 0, available: true },
    })
    expect(user.status, user.raw).toBe(200)
    clerkId = user.body.data
    clerk = await t.login('busclerk', 'secret123')
    const tenant = await t.call('POST', '/system/tenant', { token: admin, body: { id: '2000', name: '第二租户', available: true } })
    expect(tenant.status, tenant.raw).toBe(200)
    other = await t.login('2000@admin')
  })
  afterEach(() => {
    for (const s of open.splice(0)) s.close()
  })
  afterAll(async () => t?.close())

  it('refuses a handshake without a token or with an unknown one, and accepts a live session', async () => {
    await expect(connectBus(base, undefined)).rejects.toThrow('登录已过期，请重新登录！')
    await expect(connectBus(base, 'no-such-token')).rejects.toThrow('登录已过期，请重新登录！')
    const s = await connect(admin)
    expect(s.connected).toBe(true)
  })

  it('tells the other users of the tenant when a user comes online and goes offline, with name, IP and time', async () => {
    const watcher = await connect(admin)
    const foreign = await connect(other)
    const foreignHeard = recorder(foreign, BusEvent.userOnline)
    const online = nextEvent<PresenceEvent>(watcher, BusEvent.userOnline, (p) => p.userId === clerkId)
    const first = await connect(clerk)
    const ownHeard = recorder(first, BusEvent.userOnline)
    const seen = await online
    expect(seen).toMatchObject({ userId: clerkId, name: '总线店员', username: 'busclerk', ip: '127.0.0.1' })
    expect(seen.time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)

    // A second tab of the same user is no new "online", and closing one of two is no "offline".
    const again = recorder<PresenceEvent>(watcher, BusEvent.userOnline)
    const gone = recorder<PresenceEvent>(watcher, BusEvent.userOffline)
    const second = await connect(clerk)
    second.close()
    await pause(QUIET_MS)
    expect(again.filter((p) => p.userId === clerkId)).toEqual([])
    expect(gone.filter((p) => p.userId === clerkId)).toEqual([])

    const offline = nextEvent<PresenceEvent>(watcher, BusEvent.userOffline, (p) => p.userId === clerkId)
    first.close()
    expect(await offline).toMatchObject({ userId: clerkId, name: '总线店员', ip: '127.0.0.1' })
    // Nobody is told about themselves, and another tenant hears nothing.
    expect(ownHeard.filter((p) => (p as PresenceEvent).userId === clerkId)).toEqual([])
    expect(foreignHeard).toEqual([])
  })

  it('sends sysNotice to every online user of the tenant when a notice is published, never to another tenant', async () => {
    const a = await connect(admin)
    const c = await connect(clerk)
    const foreign = await connect(other)
    const foreignHeard = recorder(foreign, BusEvent.sysNotice)
    const adminGot = nextEvent<BusMessage>(a, BusEvent.sysNotice, (m) => (m.data as SysNoticeData).title === '总线通知一')
    const clerkGot = nextEvent<BusMessage>(c, BusEvent.sysNotice, (m) => (m.data as SysNoticeData).title === '总线通知一')
    const r = await t.call<string>('POST', '/system/notice', { token: admin, body: { title: '总线通知一', content: '<p>内容</p>', published: true } })
    expect(r.status, r.raw).toBe(200)
    const [m1, m2] = await Promise.all([adminGot, clerkGot])
    expect(m1).toEqual(m2)
    expect(m1).toMatchObject({ bizType: 'sysNotice', userId: null, data: { id: r.body.data, title: '总线通知一' } })
    expect((m1.data as SysNoticeData).publishTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    await pause(QUIET_MS)
    expect(foreignHeard).toEqual([])
  })

  it('announces every notice to one addressee as sysNotice to that user only: a sheet sent to them, a reminder from the server', async () => {
    // an addressee of its own, so the other tests' counts of the clerk's messages stay theirs
    const created = await t.call<string>('POST', '/system/user', {
      token: admin,
      body: { code: 'bus02', name: '通知收件人', username: 'busaddressee', password: 'secret123', gender: 0, available: true },
    })
    expect(created.status, created.raw).toBe(200)
    const clerkId = created.body.data
    const a = await connect(admin)
    const c = await connect(await t.login('1000@busaddressee', 'secret123'))
    const adminHeard = recorder<BusMessage>(a, BusEvent.sysNotice)
    const clerkHeard = recorder<BusMessage>(c, BusEvent.sysNotice)
    const sheet = await t.call<string>('POST', '/sw/excel', { token: admin, body: { name: '总线表格' } })
    expect(sheet.status, sheet.raw).toBe(200)
    const notice = nextEvent<BusMessage>(c, BusEvent.sysNotice, (m) => String((m.data as SysNoticeData).title).endsWith('发送了在线Excel：总线表格'))
    const received = nextEvent<BusMessage>(c, 'sw.received')
    const sent = await t.call('POST', '/sw/excel/send', { token: admin, body: { id: sheet.body.data, userId: clerkId } })
    expect(sent.status, sent.raw).toBe(200)
    const m = await notice
    expect(m).toMatchObject({ bizType: 'sysNotice', userId: clerkId })
    const mine = await t.call<Page<{ id: string; title: string }>>('GET', '/system/notice/query/my', { token: await t.login('1000@busaddressee', 'secret123') })
    expect(mine.body.data.datas.find((n) => n.id === (m.data as SysNoticeData).id)?.title).toBe((m.data as SysNoticeData).title)
    await received

    // a notice the server sends (the public sea's reminder goes this way), keyed: the same key again is no second notice
    const tenant = t.app.services.databases.tenant('1000')
    const reminder = nextEvent<BusMessage>(c, BusEvent.sysNotice, (x) => (x.data as SysNoticeData).title === '您有1个客户即将被收回公海')
    for (let i = 0; i < 2; i++)
      await inTransaction(tenant, (trx) => sendPersonalNotice(t.app.services, trx, clerkId, 'bus-test-reminder', '您有1个客户即将被收回公海', '请及时跟进'))
    await reminder
    await pause(QUIET_MS)
    expect(clerkHeard.filter((x) => (x.data as SysNoticeData).title === '您有1个客户即将被收回公海')).toHaveLength(1)
    expect(adminHeard).toEqual([])
  })

  it('sends nothing for a draft or for a publish that is refused and rolled back', async () => {
    const c = await connect(clerk)
    const heard = recorder(c, BusEvent.sysNotice)
    const draft = await t.call('POST', '/system/notice', { token: admin, body: { title: '草稿不发', content: '<p>x</p>' } })
    expect(draft.status).toBe(200)
    const refused = await t.call('POST', '/system/notice', { token: admin, body: { title: '长'.repeat(201), content: '<p>x</p>', published: true } })
    expect(refused.status).toBe(400)
    await pause(QUIET_MS)
    expect(heard).toEqual([])
  })

  it('sends a message to one user only, and only after the write that caused it commits', async () => {
    const c = await connect(clerk)
    const a = await connect(admin)
    const adminHeard = recorder(a, 'message')
    const got = nextEvent<BusMessage>(c, 'message')
    await publishToUser(t.app.services, '1000', clerkId, 'message', { title: '给你的文件', jumpUrl: '/sw/filebox' })
    expect(await got).toMatchObject({ bizType: 'message', userId: clerkId, data: { title: '给你的文件', jumpUrl: '/sw/filebox' } })

    const heard = recorder(c, 'message')
    const db = t.app.services.databases.tenant('1000')
    await expect(
      inTransaction(db, async (trx) => {
        await publishToUser(t.app.services, '1000', clerkId, 'message', { title: '回滚的消息' }, { trx })
        throw new Error('the write fails')
      }),
    ).rejects.toThrow('the write fails')
    await inTransaction(db, (trx) => publishToUser(t.app.services, '1000', clerkId, 'message', { title: '提交的消息' }, { trx }))
    await pause(QUIET_MS)
    expect(heard.map((m) => (m as BusMessage).data)).toEqual([{ title: '提交的消息' }])
    expect(adminHeard).toEqual([])
    const list = await t.call<Page<BusMessage>>('GET', '/message/bus/query', { token: clerk, query: { pageIndex: 1, pageSize: 50, personal: true } })
    expect(list.body.data.datas.map((m) => (m.data as { title: string }).title)).toEqual(['提交的消息', '给你的文件'])
  })

  it('refuses a message that is too large or badly named before anything is written', async () => {
    await expect(publishToUser(t.app.services, '1000', clerkId, 'message', { text: 'x'.repeat(7000) })).rejects.toThrow('消息内容过大')
    await expect(publishToUser(t.app.services, '1000', clerkId, 'bad name!', {})).rejects.toThrow('消息类型不正确')
  })

  it('lists the caller\'s recent bus messages, paged, newest first, tenant-wide and personal ones, never another tenant\'s or user\'s', async () => {
    const mine = await t.call<Page<BusMessage>>('GET', '/message/bus/query', { token: clerk, query: { pageIndex: 1, pageSize: 2 } })
    expect(mine.status, mine.raw).toBe(200)
    expect(mine.body.data).toMatchObject({ pageIndex: 1, pageSize: 2 })
    expect(mine.body.data.datas).toHaveLength(2)
    expect(mine.body.data.totalCount).toBe(3)
    const all = await t.call<Page<BusMessage>>('GET', '/message/bus/query', { token: clerk, query: { pageIndex: 1, pageSize: 20 } })
    expect(all.body.data.datas.map((m) => m.bizType)).toEqual(['message', 'message', 'sysNotice'])
    const times = all.body.data.datas.map((m) => m.createTime)
    expect([...times].sort().reverse()).toEqual(times)
    const notices = await t.call<Page<BusMessage>>('GET', '/message/bus/query', { token: clerk, query: { bizType: 'sysNotice' } })
    expect(notices.body.data.datas.map((m) => (m.data as SysNoticeData).title)).toEqual(['总线通知一'])
    // The admin sees the notice but not the clerk's messages; tenant 2000 sees none of it.
    const adminList = await t.call<Page<BusMessage>>('GET', '/message/bus/query', { token: admin })
    expect(adminList.body.data.datas.map((m) => m.bizType)).toEqual(['sysNotice'])
    const foreign = await t.call<Page<BusMessage>>('GET', '/message/bus/query', { token: other })
    expect(foreign.body.data).toMatchObject({ totalCount: 0, datas: [] })
    const bad = await t.call('GET', '/message/bus/query', { token: clerk, query: { bizType: "x' or 1=1" } })
    expect(bad.status).toBe(400)
    expect(bad.body.msg).toBe('消息类型不正确')
    expect((await t.call('GET', '/message/bus/query')).status).toBe(401)
  })

  it('disconnects the sockets of a session when it logs out, and refuses that token afterwards', async () => {
    const token = await t.login('1000@busclerk', 'secret123')
    const s = await connect(token)
    const keep = await connect(clerk)
    const reason = disconnected(s)
    const out = await t.call('POST', '/auth/logout', { token })
    expect(out.status).toBe(200)
    expect(await reason).toBe('io server disconnect')
    // Another session of the same user stays.
    await pause(QUIET_MS)
    expect(keep.connected).toBe(true)
    await expect(connectBus(base, token)).rejects.toThrow('登录已过期，请重新登录！')
  })

  it('disconnects every socket of a user who is disabled', async () => {
    const token = await t.login('1000@busclerk', 'secret123')
    const s = await connect(token)
    const reason = disconnected(s)
    const off = await t.call('PATCH', '/system/user/unable/batch', { token: admin, body: [clerkId] })
    expect(off.status, off.raw).toBe(200)
    expect(await reason).toBe('io server disconnect')
    await t.call('PATCH', '/system/user/enable/batch', { token: admin, body: [clerkId] })
    clerk = await t.login('1000@busclerk', 'secret123')
  })

  it('disconnects a socket whose session expired while it was open', async () => {
    const token = await t.login('1000@busclerk', 'secret123')
    const s = await connect(token)
    const reason = disconnected(s)
    await t.app.services.databases.platform.updateTable('sys_session').set({ last_active_time: '2000-01-01 00:00:00' }).where('token', '=', token).execute()
    await t.app.services.bus.endExpiredSockets()
    expect(await reason).toBe('io server disconnect')
    expect((await t.call('GET', '/auth/info', { token })).status).toBe(401)
  })
})

/**
 * kill -9 of a server process holding sockets (PostgreSQL: SQLite is one process by design). Its
 * disconnect handlers never run, so the presence rows it left are what tells: the other process sees
 * its heartbeat stop and sends userOffline for each user with no socket left anywhere, and for no one else.
 */
describe.skipIf(process.env.TEST_DB !== 'postgres')('message bus: a process killed with sockets open', () => {
  const HEARTBEAT_MS = 500
  const EXPIRE_MS = 2000
  const knobs = { BUS_HEARTBEAT_MS: String(HEARTBEAT_MS), BUS_PROCESS_EXPIRE_MS: String(EXPIRE_MS), SCHEDULER: 'off' }
  let t: TestApp
  let child: ServerProcess | undefined
  const open: Socket[] = []

  beforeAll(async () => {
    t = await startTestApp({ env: knobs })
    await t.app.listen({ port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => {
    for (const s of open.splice(0)) s.close()
    await child?.kill()
    await t?.close()
  })

  it('tells the other users userOffline for the users whose only sockets it held, within the stated time', { timeout: 180_000 }, async () => {
    const admin = await t.login()
    const user = async (code: string, username: string, name: string) => {
      const r = await t.call<string>('POST', '/system/user', { token: admin, body: { code, name, username, password: 'secret123', gender: 0, available: true } })
      expect(r.status, r.raw).toBe(200)
      return { id: r.body.data, token: await t.login(username, 'secret123') }
    }
    const only = await user('kill01', 'killonly', '只在被杀进程')
    const both = await user('kill02', 'killboth', '两个进程都有')
    child = await startServerProcess(t.app.services.config.databaseUrl, t.dataDir, knobs)
    const here = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    const socket = async (base: string, token: string) => {
      const s = await connectBus(base, token, 10_000)
      open.push(s)
      return s
    }
    const watcher = await socket(here, admin)
    await socket(child.base, only.token)
    await socket(child.base, both.token)
    await socket(here, both.token)
    const offline = recorder<PresenceEvent>(watcher, BusEvent.userOffline)
    const gone = nextEvent<PresenceEvent>(watcher, BusEvent.userOffline, (p) => p.userId === only.id, 30_000)
    await child.kill()
    const killedAt = Date.now()
    const seen = await gone
    expect(seen).toMatchObject({ userId: only.id, name: '只在被杀进程', username: 'killonly', ip: '127.0.0.1' })
    // a dead process is found within its expiry and one heartbeat (slack for a loaded machine)
    expect(Date.now() - killedAt).toBeLessThan(EXPIRE_MS + HEARTBEAT_MS + 5000)
    await pause(EXPIRE_MS)
    // the user still online through this process is not offline, and the dead one is told once
    expect(offline.map((p) => p.userId)).toEqual([only.id])
    const rows = await t.app.services.databases.platform.selectFrom('sys_bus_presence').select(['user_id']).execute()
    const adminId = (await t.call<{ user: { id: string } }>('GET', '/auth/info', { token: admin })).body.data.user.id
    // what is left: the sockets of the live process only
    expect(rows.map((r) => String(r.user_id)).sort()).toEqual([adminId, both.id].sort())
  })
})
