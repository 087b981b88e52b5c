import { readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkField } from '../../src/shared/metadata/validate-record.js'
import { patterns } from '../../src/shared/metadata/patterns.js'
import { loadClientMeta } from './client-entities.js'

const meta = loadClientMeta()
const entityNames = readdirSync(path.resolve(import.meta.dirname, '../../schemas/entities'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => meta.entity(f.replace(/\.json$/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())).name)

describe('validation rules of the spec (000 §5, 001 §5)', () => {
  const codeFields = entityNames
    .map((name) => ({ name, field: meta.entity(name).fields.find((f) => f.name === 'code' && f.pattern === 'code' && !f.readOnly) }))
    .filter((x) => x.field)

  it('finds the code fields to check', () => expect(codeFields.length).toBeGreaterThan(20))

  it.each(codeFields.map((x) => [x.name, x.field!] as const))(
    '%s: a code of 21 valid characters answers the code rule (the pattern carries the length)',
    (_, field) => {
      expect(checkField(field, 'ABCDEFGHIJ-_.01234567', meta.enums, 'create')).toBe('编号必须由字母、数字、“-_.”组成，长度不能超过20位')
      expect(checkField(field, 'ABCDEFGHIJ-_.0123456', meta.enums, 'create')).toBeUndefined()
    },
  )

  it('the shared patterns have a negative-integer helper', () => {
    const p = patterns.negativeInteger
    expect(['-1', '-20', '-1000'].every((v) => p.regex.test(v))).toBe(true)
    expect(['0', '-0', '1', '-01', '-1.5', '', '--1', ' -1'].some((v) => p.regex.test(v))).toBe(false)
    expect(p.message.replace('{label}', '数量')).toBe('数量必须为负整数')
  })
})

describe('constants and look (001 §9)', () => {
  it('the antd theme carries the spec colours, error #f5222f instead of antd 5 #ff4d4f', { timeout: 60_000 }, async () => {
    const { themeConfig } = await import('../../src/client/app/theme.js')
    for (const mode of ['light', 'dark'] as const)
      expect(themeConfig(mode).token).toMatchObject({ colorPrimary: '#1890ff', colorSuccess: '#52c41a', colorWarning: '#faad14', colorError: '#f5222f' })
  })

  it('the error colour antd derives is #f5222f in all three theme modes (the dark algorithm would darken it)', { timeout: 60_000 }, async () => {
    const { themeConfig } = await import('../../src/client/app/theme.js')
    const { theme } = await import('antd')
    for (const mode of ['light', 'dark', 'night'] as const) expect(theme.getDesignToken(themeConfig(mode)).colorError, mode).toBe('#f5222f')
    expect(theme.getDesignToken({ algorithm: theme.darkAlgorithm, token: { colorError: '#f5222f' } }).colorError).not.toBe('#f5222f')
  })

  it('less motion turns antd\'s motion off in every theme mode and keeps its colours; by default motion stays on', { timeout: 60_000 }, async () => {
    const { themeConfig } = await import('../../src/client/app/theme.js')
    const { theme } = await import('antd')
    for (const mode of ['light', 'dark', 'night'] as const) {
      const still = theme.getDesignToken(themeConfig(mode, true))
      expect([still.motion, still.colorError], mode).toEqual([false, '#f5222f'])
      expect(theme.getDesignToken(themeConfig(mode)).motion, mode).toBe(true)
    }
  })

  it('default table height: viewport less 360 with a search card, 140 without, less more when more stands around the rows, at least 240', async () => {
    const { fittedRowsHeight } = await import('../../src/client/runtime/table-height.js')
    expect(fittedRowsHeight(900, 300, true)).toBe(540)
    expect(fittedRowsHeight(900, 100, false)).toBe(760)
    expect(fittedRowsHeight(900, 420, true)).toBe(480)
    expect(fittedRowsHeight(900, 283, false)).toBe(617)
    expect(fittedRowsHeight(500, 420, true)).toBe(240)
  })
})
