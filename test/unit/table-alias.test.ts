import { describe, expect, it } from 'vitest'
import { proposedAlias } from '../../src/client/lowcode/table-alias.js'

describe('the 主表别名 proposed from a table', () => {
  it('is the initials of its words, lower case, a letter first', () => {
    expect(proposedAlias('base_data_product')).toBe('bdp')
    expect(proposedAlias('sys_user')).toBe('su')
    expect(proposedAlias('Crm-Customer')).toBe('cc')
    expect(proposedAlias('9_lives')).toBe('l')
    expect(proposedAlias('___')).toBe('t')
  })
})
