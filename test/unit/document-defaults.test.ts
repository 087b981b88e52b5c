import dayjs from 'dayjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { formItems } from '../../src/client/runtime/form-schema.js'
import { initialFormValues } from '../../src/client/runtime/form-values.js'
import { rememberValue } from '../../src/client/runtime/remembered-values.js'
import { loadClientMeta } from './client-entities.js'

const meta = loadClientMeta()
const started = (name: string, userId?: string) => initialFormValues(formItems(meta.entity(name), 'add', meta.lookup), 'add', undefined, userId)

/** What a clerk no longer types: defaults declared per field in the document files (`defaultFrom`). */
describe('a new document starts with what the system knows', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('purchaser / salesperson is the signed-in user, the warehouse their last one, the arrival date today', () => {
    const kept = new Map<string, string>()
    vi.stubGlobal('localStorage', { getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => void kept.set(k, v) })
    expect(started('purchaseOrder', 'U1')).toMatchObject({ purchaserId: 'U1' })
    expect(started('purchaseOrder', 'U1').scId).toBeUndefined()
    rememberValue('U1', 'scId', 'W7')
    for (const name of ['purchaseOrder', 'receiveSheet', 'saleOrder', 'saleOutSheet', 'retailOutSheet', 'stockAdjustSheet'])
      expect(started(name, 'U1').scId, name).toBe('W7')
    expect(started('saleOrder', 'U1')).toMatchObject({ salerId: 'U1' })
    // Another user's last warehouse is theirs.
    expect(started('saleOrder', 'U2').scId).toBeUndefined()
    expect(started('receiveSheet', 'U1')).toMatchObject({ purchaserId: 'U1', receiveDate: dayjs().format('YYYY-MM-DD') })
  })

  it('a browser that keeps nothing starts empty rather than failing', () => {
    vi.stubGlobal('localStorage', undefined)
    expect(started('purchaseOrder', 'U1').scId).toBeUndefined()
  })
})
