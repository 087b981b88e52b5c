import { describe, expect, it } from 'vitest'
import { buildConditions } from '../../src/server/engine/list-conditions.js'
import { RecordCodec } from '../../src/server/engine/record-codec.js'
import type { QueryParam } from '../../src/shared/generated/entity.js'
import { loadClientMeta } from './client-entities.js'

const meta = loadClientMeta()
const codec = new RecordCodec('postgres', meta.enums)
const conditions = (params: QueryParam[], values: Record<string, unknown>) =>
  buildConditions({ entity: meta.entity('product'), kind: 'postgres', codec, alias: 't', params, values, descendants: async (_, id) => [id] })

describe('list conditions: a malformed filter is a 400, never SQL that fails', () => {
  it('refuses an enumeration value that is no code of it (PostgreSQL would fail on the integer column)', async () => {
    await expect(conditions([{ field: 'productType', op: 'eq' }], { productType: 'abc' })).rejects.toThrow('商品类型格式不正确')
    await expect(conditions([{ field: 'productType', op: 'in' }], { productType: '1,x' })).rejects.toThrow('商品类型格式不正确')
    expect(await conditions([{ field: 'productType', op: 'in' }], { productType: '1,2' })).toHaveLength(1)
    expect(await conditions([{ field: 'productType', op: 'eq' }], { productType: ' 2 ' })).toHaveLength(1)
  })

  it('refuses a repeated query parameter for a single-value comparison', async () => {
    await expect(conditions([{ field: 'code', op: 'eq' }], { code: ['a', 'b'] })).rejects.toThrow('编号格式不正确')
  })

  it('keeps boolean enumerations lenient (1/0 and true/false)', async () => {
    expect(await conditions([{ field: 'available', op: 'eq' }], { available: '1' })).toHaveLength(1)
    expect(await conditions([{ field: 'available', op: 'eq' }], { available: 'false' })).toHaveLength(1)
  })
})
