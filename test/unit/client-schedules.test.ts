import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { IMPORT_POLL_MS, pollImportTask } from '../../src/client/components/import-progress.js'
import { BELL_INTERVAL_MS, BELL_POLL, BELL_QUERY } from '../../src/client/features/notice/notice-api.js'
import type { ImportTask } from '../../src/shared/contracts/component.js'

/**
 * The browser's timed work as 000 §4/§9 fixes it, with fake timers instead of real waits: the import
 * progress polled every 500 ms, the bell's 20 unread notices every 5000 ms, and the message bus tried
 * again every 3 s while a token exists.
 */

// The bell's module reads the signed-in session from local storage when it loads.
vi.hoisted(() => {
  const store = new Map<string, string>()
  Object.assign(globalThis, { localStorage: { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v), removeItem: (k: string) => store.delete(k) } })
})

/** A stand-in for socket.io's client: records what the bus asks of it and lets a test drop the connection. */
const sockets: FakeSocket[] = []
class FakeSocket {
  connected = true
  active = true
  connects = 0
  private readonly handlers = new Map<string, () => void>()
  constructor(readonly options: Record<string, unknown>) {}
  onAny() {}
  on(event: string, handler: () => void) {
    this.handlers.set(event, handler)
  }
  off() {}
  disconnect() {
    this.connected = false
    this.active = false
  }
  connect() {
    this.connects += 1
    this.opened()
  }
  /** The connection is up (socket.io's `connect` event). */
  opened() {
    this.connected = true
    this.active = true
    this.handlers.get('connect')?.()
  }
}
vi.mock('socket.io-client', () => ({
  io: (options: Record<string, unknown>) => {
    const s = new FakeSocket(options)
    sockets.push(s)
    return s
  },
}))

const task = (p: Partial<ImportTask>): ImportTask => ({ process: 0, successProcess: 0, tipMsgs: [], hasError: false, finished: false, data: null, ...p })

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('import progress poll (000 §9: every 500 ms)', () => {
  it('reads one interval after the start and one interval after each answer, until the task is finished', async () => {
    expect(IMPORT_POLL_MS).toBe(500)
    const answers = [task({ process: 30 }), task({ process: 70 }), task({ process: 100, finished: true })]
    const read = vi.fn(async () => answers[read.mock.calls.length - 1])
    const seen: number[] = []
    pollImportTask(read, (t) => seen.push(t.process), () => undefined)
    await vi.advanceTimersByTimeAsync(499)
    expect(read).toHaveBeenCalledTimes(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(read).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(499)
    expect(read).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(read).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(500)
    expect(seen).toEqual([30, 70, 100])
    await vi.advanceTimersByTimeAsync(5000)
    expect(read).toHaveBeenCalledTimes(3)
  })

  it('never has two reads in flight: a slow answer delays the next read', async () => {
    let answer: (t: ImportTask) => void = () => undefined
    const read = vi.fn(() => new Promise<ImportTask>((resolve) => (answer = resolve)))
    pollImportTask(read, () => undefined, () => undefined)
    await vi.advanceTimersByTimeAsync(500)
    await vi.advanceTimersByTimeAsync(3000)
    expect(read).toHaveBeenCalledTimes(1)
    answer(task({ process: 10 }))
    await vi.advanceTimersByTimeAsync(499)
    expect(read).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(read).toHaveBeenCalledTimes(2)
  })

  it('stops on a failed read (reported once) and when stopped', async () => {
    const failed = vi.fn()
    const broken = vi.fn(async () => Promise.reject(new Error('任务不存在')))
    pollImportTask(broken, () => undefined, failed)
    await vi.advanceTimersByTimeAsync(5000)
    expect(broken).toHaveBeenCalledTimes(1)
    expect(failed).toHaveBeenCalledTimes(1)

    const read = vi.fn(async () => task({ process: 5 }))
    const stop = pollImportTask(read, () => undefined, () => undefined)
    await vi.advanceTimersByTimeAsync(1000)
    expect(read).toHaveBeenCalledTimes(2)
    stop()
    await vi.advanceTimersByTimeAsync(5000)
    expect(read).toHaveBeenCalledTimes(2)
  })
})

describe('the bell poll (000 §9: 20 unread notices, page 1, every 5000 ms)', () => {
  it('asks page 1 of 20 unread and refreshes every 5000 ms while the page is shown', () => {
    expect(BELL_QUERY).toEqual({ pageIndex: 1, pageSize: 20, readed: false })
    expect(BELL_INTERVAL_MS).toBe(5000)
    expect(BELL_POLL).toMatchObject({ refreshInterval: 5000, refreshWhenHidden: false, revalidateOnFocus: true })
  })
})

describe('the message bus (000 §4/§9: reconnect every 3 s while a token exists)', () => {
  it('asks socket.io for a fixed 3 s retry and starts a connection the server ended again within 3 s, until stopped', async () => {
    const { BUS_RECONNECTED, RECONNECT_CHECK_MS, onBus, startBus, stopBus } = await import('../../src/client/features/bus/bus-socket.js')
    const heard: string[] = []
    const unsubscribe = onBus((event) => heard.push(event))
    expect(RECONNECT_CHECK_MS).toBe(3000)
    startBus('token-1')
    const s = sockets.at(-1)!
    expect(s.options).toMatchObject({ auth: { token: 'token-1' }, reconnectionDelay: 3000, reconnectionDelayMax: 3000, randomizationFactor: 0 })

    // Connected: nothing to do, and nothing to read again the first time.
    s.opened()
    expect(heard).toEqual([])
    await vi.advanceTimersByTimeAsync(9000)
    expect(s.connects).toBe(0)
    // Ended by the server (socket.io gives up on its own): tried again at the next 3 s check, not before.
    s.connected = false
    s.active = false
    await vi.advanceTimersByTimeAsync(2999)
    expect(s.connects).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(s.connects).toBe(1)
    // Back after it was lost: the listeners read afresh what they may have missed.
    expect(heard).toEqual([BUS_RECONNECTED])
    // Still reconnecting on its own (active): left to socket.io.
    s.connected = false
    await vi.advanceTimersByTimeAsync(6000)
    expect(s.connects).toBe(1)

    // Signed out: no more tries.
    stopBus()
    s.connected = false
    s.active = false
    await vi.advanceTimersByTimeAsync(30000)
    expect(s.connects).toBe(1)
    unsubscribe()
  })
})
