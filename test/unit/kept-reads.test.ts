/**
 * Reads a process keeps while it hears a channel (platform/kept-reads.ts): what a cached grant, data permission,
 * configuration, 系统参数 or subscription list rests on. A kept read must never outlive a change it was told of.
 */
import { describe, expect, it } from 'vitest'
import { HeardChannel } from '../../src/server/db/pg-listener.js'
import { KeptReads } from '../../src/server/platform/kept-reads.js'

function setup(unheardTtlMs = 0) {
  const heard: HeardChannel = new HeardChannel(
    (schema) => kept.forget(schema),
    () => kept.clear(),
  )
  const kept = new KeptReads(heard, 60_000, unheardTtlMs)
  let loads = 0
  const read = (tenantId = 'T1', value = 'v') => kept.read(tenantId, 'what', async () => `${value}${++loads}`)
  return { heard, kept, read, loads: () => loads }
}

describe('kept reads', () => {
  it('keep nothing without the channel, unless told a time to live for that', async () => {
    const none = setup()
    expect([await none.read(), await none.read()]).toEqual(['v1', 'v2'])
    const brief = setup(5_000)
    expect([await brief.read(), await brief.read()]).toEqual(['v1', 'v1'])
    brief.kept.clear()
    expect(await brief.read()).toBe('v2')
  })

  it('keep a read per tenant while the channel is heard, until it names the tenant or is lost', async () => {
    const { heard, read } = setup()
    heard.events.up()
    expect([await read('T1'), await read('T1'), await read('T2')]).toEqual(['v1', 'v1', 'v2'])
    heard.events.message('tenant_t2')
    expect([await read('T1'), await read('T2')]).toEqual(['v1', 'v3'])
    heard.events.down()
    expect([await read('T1'), await read('T1')]).toEqual(['v4', 'v5'])
  })

  it('do not keep a read that was in flight when a notification came', async () => {
    const { heard, kept } = setup()
    heard.events.up()
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const racing = kept.read('T1', 'what', async () => {
      await gate
      return 'before the change'
    })
    heard.events.message('tenant_t1')
    release()
    expect(await racing).toBe('before the change')
    expect(await kept.read('T1', 'what', async () => 'after the change')).toBe('after the change')
  })
})
