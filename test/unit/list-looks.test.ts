import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { customListChoice, customListSource } from '../../src/client/lowcode/custom-list-source.js'
import { timelineColour } from '../../src/client/runtime/document/timeline-colour.js'
import type { CustomListConfig } from '../../src/shared/contracts/lowcode-wire.js'
import type { EnumsFile } from '../../src/shared/generated/enums.js'
import { EnumCatalog } from '../../src/shared/metadata/enum-catalog.js'

/**
 * How documents and custom lists look by their data (000 §4, 001 §2): the timeline's colours by biz type,
 * and a custom list's choice column, sequence column and tree by its type and settings.
 */

const enums = new EnumCatalog(JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../schemas/enums.json'), 'utf8')) as EnumsFile)

describe('document timeline colours (000 §4: approval red on return or cancel, green on pass)', () => {
  it('colours approve pass green, refuse and cancel approval red, the other entries blue', () => {
    const byKey = Object.fromEntries(enums.items('ORDER_TIME_LINE_BIZ_TYPE').map((i) => [i.key, timelineColour(enums, Number(i.code))]))
    expect(byKey).toEqual({ NORMAL: 'blue', CREATE: 'blue', UPDATE: 'blue', SEND: 'blue', APPROVE_PASS: 'green', APPROVE_RETURN: 'red', CANCEL_APPROVE: 'red', RECEIVE: 'blue' })
  })
})

const list = (listConfig: Partial<CustomListConfig['listConfig']>): CustomListConfig => ({
  listConfig: { id: 'L1', listType: 0, hasPage: true, treeData: false, idColumn: 'c_id', allowExport: false, fields: [], ...listConfig },
  queryParams: [],
  toolbars: [],
  handleColumns: [],
})

describe('custom list types (001 §2: sequence with current-row highlight, single choice radio, multiple choice checkbox)', () => {
  it('a sequence list shows 序号 and chooses nothing; single chooses one (radio), multiple several (checkboxes) without 序号', () => {
    const seq = list({ listType: 0 })
    expect(customListChoice(seq)).toBeUndefined()
    expect(customListSource('L1', seq, false).seq).toBe(true)
    expect(customListChoice(list({ listType: 1 }))).toBe('single')
    expect(customListChoice(list({ listType: 2 }))).toBe('multiple')
    expect(customListSource('L1', list({ listType: 1 }), true).seq).toBe(false)
  })

  it('a tree list reads all rows as a tree shown expanded; a paged list pages', () => {
    const tree = customListSource('L1', list({ treeData: true, hasPage: true, treePidColumn: 'c_parent_id' }), false)
    expect(tree.tree).toEqual({ parentField: 'c_parent_id', idField: 'c_id', expanded: true })
    expect(tree.paged).toBe(false)
    const paged = customListSource('L1', list({}), false)
    expect(paged.tree).toBeUndefined()
    expect(paged.paged).toBe(true)
  })
})
