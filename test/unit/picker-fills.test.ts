import { describe, expect, it, vi } from 'vitest'
import { createForm, type Field } from '@formily/core'
import { loadClientMeta } from './client-entities.js'
import { formItems } from '../../src/client/runtime/form-schema.js'

// The contract picker's `/load` answers the chosen contract (the server's part is covered by the API tests).
const loaded = vi.hoisted(() => ({ calls: [] as string[] }))
vi.mock('../../src/client/api/call.js', () => ({
  call: async (contract: { path: string }, ids: string[]) => {
    loaded.calls.push(`${contract.path} ${ids.join(',')}`)
    return ids.map((id) => ({ id, contractNo: 'HT-1', customerId: 'customer-9', principalId: 'user-7' }))
  },
}))

const { pickerFillEffects, pickerFills } = await import('../../src/client/runtime/picker-fills.js')
const meta = loadClientMeta()
const pickerEntity = (kind: string) => ['crmContract', 'crmBusiness'].map(meta.entity).find((e) => e.file.views?.picker?.kind === kind)

describe('picker fills (spec 000 §3: choosing a contract fills customerId and salerId)', () => {
  it('reads what a picker fills from its declaration, a field`s own copies first', () => {
    const order = meta.entity('saleOrder')
    expect(pickerFills(order.byName.get('contractId')!, 'crm/contract', pickerEntity)).toEqual({ customerId: 'customerId', principalId: 'salerId' })
    const contract = meta.entity('crmContract')
    expect(pickerFills(contract.byName.get('businessId')!, 'crm/business', pickerEntity)).toEqual({ customerId: 'customerId', name: 'name', amount: 'amount' })
    expect(pickerFills(order.byName.get('customerId')!, 'customer', pickerEntity)).toBeUndefined()
  })

  it('fills the customer and the salesman of a sale order when the user chooses a contract', async () => {
    const order = meta.entity('saleOrder')
    const items = formItems(order, 'add', meta.lookup)
    const form = createForm({ effects: (f) => pickerFillEffects(f, items, pickerEntity) })
    for (const name of ['contractId', 'customerId', 'salerId']) form.createField({ name })
    ;(form.query('contractId').take() as Field).onInput('contract-1')
    const deadline = Date.now() + 2000
    while (form.values.salerId === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5))
    expect(loaded.calls).toEqual(['/selector/crm/contract/load contract-1'])
    expect(form.values).toMatchObject({ contractId: 'contract-1', customerId: 'customer-9', salerId: 'user-7' })
  })

  it('leaves a field the user may not edit as it is', async () => {
    const order = meta.entity('saleOrder')
    const form = createForm({ effects: (f) => pickerFillEffects(f, formItems(order, 'add', meta.lookup), pickerEntity) })
    form.createField({ name: 'contractId' })
    form.createField({ name: 'customerId', disabled: true, initialValue: 'mine' })
    form.createField({ name: 'salerId' })
    ;(form.query('contractId').take() as Field).onInput('contract-2')
    const deadline = Date.now() + 2000
    while (form.values.salerId === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5))
    expect(form.values).toMatchObject({ customerId: 'mine', salerId: 'user-7' })
  })
})
