import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

describe('addresses: owner by type, one default per owner and type', () => {
  let t: TestApp
  let token: string
  let customerId: string
  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    customerId = (await t.call<string>('POST', '/basedata/customer', { token, body: { code: 'C01', name: '客户一', settleType: 1 } })).body.data
  })
  afterAll(async () => t?.close())

  const address = (over: Record<string, unknown> = {}) => ({
    entityType: 2,
    entityId: customerId,
    addressType: 2,
    name: '张三',
    telephone: '13800138000',
    cityId: '330106',
    address: '文三路1号',
    isDefault: true,
    ...over,
  })

  it('refuses an owner that does not exist for its type', async () => {
    const r = await t.call('POST', '/basedata/address', { token, body: address({ entityType: 3 }) })
    expect(r.body.msg).toBe('供应商不存在')
  })

  it('keeps one default receive address per customer; the delivery default is separate', async () => {
    const first = (await t.call<string>('POST', '/basedata/address', { token, body: address() })).body.data
    const delivery = (await t.call<string>('POST', '/basedata/address', { token, body: address({ addressType: 1 }) })).body.data
    const second = (await t.call<string>('POST', '/basedata/address', { token, body: address({ address: '文三路2号' }) })).body.data
    const get = async (id: string) => (await t.call<{ isDefault: boolean }>('GET', '/basedata/address', { token, query: { id } })).body.data.isDefault
    expect([await get(first), await get(second), await get(delivery)]).toEqual([false, true, true])
  })
})
