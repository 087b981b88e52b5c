import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTradeFixtures, type TradeFixtures } from '../support/trade-fixtures.js'
import { stockClient } from '../support/stock-helpers.js'
import { userWithMenus } from '../support/access-helpers.js'

type Row = Record<string, unknown> & { id: string }

/**
 * Spec 000 §3: a form that uses the contract picker fills customerId and salerId from the chosen
 * contract. The sale order offers the picker (关联合同): it keeps the contract, and whoever enters sale
 * orders may read the contract's customer and 负责人 through the picker's load.
 */
describe('sale order: related contract through the contract picker', () => {
  let t: TestApp
  let f: TradeFixtures
  let c: ReturnType<typeof stockClient>
  let contractId: string
  let adminId: string

  beforeAll(async () => {
    t = await startTestApp()
    const token = await t.login()
    f = await createTradeFixtures(t, token, 'SOC')
    c = stockClient(t, token)
    adminId = (await c.ok<{ user: { id: string } }>('GET', '/auth/info')).user.id
    contractId = await c.ok<string>('POST', '/crm/contract', { contractNo: 'SOC-HT1', name: '供货合同', customerId: f.customerId, amount: '100.00', signDate: '2026-01-05' })
  })
  afterAll(async () => t?.close())

  it('answers the contract with what the picker fills, to a clerk who enters sale orders', async () => {
    const clerk = await userWithMenus(t, await t.login(), 'socclerk', ['sale:order:add'])
    const r = await t.call<Row[]>('POST', '/selector/crm/contract/load', { token: clerk, body: [contractId] })
    expect(r.body.msg).toBe('操作成功！')
    expect(r.body.data[0]).toMatchObject({ id: contractId, customerId: f.customerId, principalId: adminId })
    const stranger = await userWithMenus(t, await t.login(), 'socnobody', [])
    const refused = await t.call('POST', '/selector/crm/contract/load', { token: stranger, body: [contractId] })
    expect(refused.status).toBe(403)
  })

  it('keeps the related contract of a sale order and answers its name', async () => {
    const id = await c.ok<string>('POST', '/sale/order', {
      scId: f.scA,
      contractId,
      customerId: f.customerId,
      products: [{ productId: f.p1, orderNum: 1, taxPrice: '15.00' }],
      payTypes: [{ id: f.payTypeId, payAmount: '15.00' }],
    })
    expect(await c.ok<Row>('GET', '/sale/order', undefined, { id })).toMatchObject({ contractId, contractName: '供货合同' })
    const bad = await c.call('POST', '/sale/order', {
      scId: f.scA,
      contractId: 'no-such-contract',
      customerId: f.customerId,
      products: [{ productId: f.p1, orderNum: 1, taxPrice: '15.00' }],
      payTypes: [{ id: f.payTypeId, payAmount: '15.00' }],
    })
    expect(bad.body.code).not.toBe(200)
  })
})
