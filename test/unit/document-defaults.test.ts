import dayjs from 'dayjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { formItems } from '../../src/client/runtime/form-schema.js'
import { initialFormValues } from '../../src/client/runtime/form-values.js'
import { rememberValue } from '../../src/client/runtime/remembered-values.js'
import { loadClientMeta } from './client-entities.js'

const meta = loadClientMeta()
const settingsOf = (values: Record<string, unknown>) => (ref: string) => values[ref]
const started = (name: string, userId?: string, setting = settingsOf({ 'purchaseConfig.receiveDays': 0 })) =>
  initialFormValues(formItems(meta.entity(name), 'add', meta.lookup), 'add', undefined, userId, setting)

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

  it('dates count from the settings’ day counts (defaultDays); a blank count leaves the date empty', () => {
    vi.stubGlobal('localStorage', undefined)
    const day = (n: number) => dayjs().add(n, 'day').format('YYYY-MM-DD')
    const setting = settingsOf({
      'purchaseConfig.expectArriveDays': 7,
      'purchaseConfig.receiveDays': 1,
      'purchaseConfig.paymentDays': 30,
      'saleConfig.paymentDays': null,
    })
    expect(started('purchaseOrder', 'U1', setting).expectArriveDate).toBe(day(7))
    expect(started('receiveSheet', 'U1', setting)).toMatchObject({ receiveDate: day(1), paymentDate: day(30) })
    expect(started('purchaseReturn', 'U1', setting).paymentDate).toBe(day(30))
    for (const name of ['saleOutSheet', 'saleReturn']) expect(started(name, 'U1', setting).paymentDate, name).toBeUndefined()
    expect(started('saleOutSheet', 'U1', settingsOf({ 'saleConfig.paymentDays': '5' })).paymentDate).toBe(day(5))
    // Settings not read (no permission, a failed read): no guessed date.
    expect(started('purchaseOrder', 'U1', settingsOf({})).expectArriveDate).toBeUndefined()
  })

  it('a browser that keeps nothing starts empty rather than failing', () => {
    vi.stubGlobal('localStorage', undefined)
    expect(started('purchaseOrder', 'U1').scId).toBeUndefined()
  })
})
