import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import dayjs from 'dayjs'
import type { EntityFile } from '../../src/shared/generated/entity.js'
import { buildEntityModel } from '../../src/shared/metadata/entity-model.js'
import { fieldText } from '../../src/client/runtime/field-text.js'
import { entityColumns } from '../../src/client/runtime/list-columns.js'
import type { EnumCatalog } from '../../src/shared/metadata/enum-catalog.js'

const entities = path.resolve(import.meta.dirname, '../../schemas/entities')
const load = (file: string) => buildEntityModel(JSON.parse(readFileSync(path.join(entities, file), 'utf8')) as EntityFile)
const enums = { label: () => undefined, items: () => [] } as unknown as EnumCatalog

/** Instants the engine keeps as epoch milliseconds (a retry's due time, a lease) read as every other time. */
describe('epoch-millisecond instants', () => {
  it('show as date-times in cells, at a date-time column width, not right-aligned numbers', () => {
    const delivery = load('webhook-delivery.json')
    const due = dayjs('2026-11-29 10:15:30').valueOf()
    const field = delivery.byName.get('nextAttemptAt')!
    expect(fieldText(field, { nextAttemptAt: due }, enums)).toBe('2026-11-29 10:15:30')
    expect(fieldText(field, { nextAttemptAt: String(due) }, enums)).toBe('2026-11-29 10:15:30')
    expect(fieldText(field, { nextAttemptAt: null }, enums)).toBe('')
    const [column] = entityColumns(delivery, ['nextAttemptAt'], true)
    expect(column).toMatchObject({ width: 170, numeric: false })
    // A plain count stays a number.
    expect(fieldText(delivery.byName.get('attempts')!, { attempts: 3 }, enums)).toBe('3')
  })

  it('no label of any entity names milliseconds since the epoch: such a field is declared a date-time', () => {
    const labels = readdirSync(entities)
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) => load(f).fields.filter((x) => /时间戳|epoch/i.test(x.label)).map((x) => `${f}: ${x.name} ${x.label}`))
    expect(labels).toEqual([])
  })
})
