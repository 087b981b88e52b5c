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
    await expect(conditions([{ field: 'productType', op: 'eq' }], { productType: 'abc' })).rejects.toThrow('查询条件“商品类型”格式不正确')
    await expect(conditions([{ field: 'productType', op: 'in' }], { productType: '1,x' })).rejects.toThrow('查询条件“商品类型”格式不正确')
    expect(await conditions([{ field: 'productType', op: 'in' }], { productType: '1,2' })).toHaveLength(1)
    expect(await conditions([{ field: 'productType', op: 'eq' }], { productType: ' 2 ' })).toHaveLength(1)
  })

  it('refuses a repeated query parameter for a single-value comparison', async () => {
    await expect(conditions([{ field: 'code', op: 'eq' }], { code: ['a', 'b'] })).rejects.toThrow('查询条件“编号”格式不正确')
  })

  it('keeps boolean enumerations lenient (1/0 and true/false)', async () => {
    expect(await conditions([{ field: 'available', op: 'eq' }], { available: '1' })).toHaveLength(1)
    expect(await conditions([{ field: 'available', op: 'eq' }], { available: 'false' })).toHaveLength(1)
  })
})

describe('list conditions: control characters, mistyped values and numbers beyond a column', () => {
  it('refuses control characters in a text condition, naming the field', async () => {
    for (const text of ['\u0000', 'a\u0001', '\n', '\u001b[31m', '\u007f'])
      await expect(conditions([{ field: 'name', op: 'contains' }], { name: text })).rejects.toThrow('名称不能包含控制字符')
    await expect(conditions([{ field: 'code', op: 'in' }], { code: ['a', 'b\u0000'] })).rejects.toThrow('不能包含控制字符')
    expect(await conditions([{ field: 'name', op: 'contains' }], { name: '矿泉水 500ml' })).toHaveLength(1)
  })

  it('refuses a JSON true for a column that is not boolean', async () => {
    await expect(conditions([{ field: 'categoryId', op: 'eq' }], { categoryId: true })).rejects.toThrow('格式不正确')
  })
  it('binds a number condition only when the column holds it', async () => {
    for (const text of ['abc', '1e400', '0x10', '9'.repeat(40)])
      await expect(conditions([{ field: 'weight', op: 'ge' }], { weight: text })).rejects.toThrow('查询条件“重量（kg）”格式不正确')
    await expect(conditions([{ field: 'weight', op: 'between' }], { weightStart: '1', weightEnd: 'x' })).rejects.toThrow('查询条件“重量（kg）”格式不正确')
    expect(await conditions([{ field: 'weight', op: 'between' }], { weightStart: '0.5', weightEnd: '12.125' })).toHaveLength(2)
  })
  it('refuses a date range bound that overflows into another day (PostgreSQL would fail on it)', async () => {
    for (const text of ['2026-13-45', '2026-02-30', '2026-11-25 25:00:00', 'notadate'])
      await expect(conditions([{ field: 'createTime', op: 'between' }], { createTimeStart: text })).rejects.toThrow('格式不正确')
    expect(await conditions([{ field: 'createTime', op: 'between' }], { createTimeStart: '2026-02-28', createTimeEnd: '2026-11-25 23:59:59' })).toHaveLength(2)
  })
})
