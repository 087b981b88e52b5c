import { describe, expect, it } from 'vitest'
import { EntityRegistry } from '../../src/server/engine/entity-registry.js'
import { defaultsSeed } from '../../src/server/modules/system/seed.js'
import { numberedFields } from '../../src/server/engine/code-rules.js'

/** Choices and codes fields declare, checked on the real files: nothing a field names may be missing. */
describe('field dictionaries and numbering rules', () => {
  const registry = new EntityRegistry()

  it('seeds every dictionary a field offers, with items', () => {
    const seeded = new Map(defaultsSeed().dictionaries.map((d) => [d.code, d.items]))
    const declared = registry.all().flatMap((e) => e.fields.filter((f) => f.dictionary).map((f) => [`${e.name}.${f.name}`, f.dictionary!]))
    expect(declared.length).toBeGreaterThan(0)
    for (const [field, code] of declared) expect(seeded.get(code)?.length, `${field} → ${code}`).toBeGreaterThan(0)
  })

  it('gives every numbered field a rule whose codes fit the field', () => {
    const dateLength = { none: 0, year: 4, month: 6, day: 8 }
    const numbered = numberedFields(registry)
    expect(numbered.map((n) => n.target).sort()).toEqual(['crmContract.contractNo', 'customer.code', 'member.code', 'menu.code'])
    for (const { target, field } of numbered) {
      const { prefix, date, digits } = field.numbering
      expect(prefix.length + dateLength[date] + digits, target).toBeLessThanOrEqual(field.maxLength ?? 20)
      expect(field.type, target).toBe('string')
    }
  })
})
