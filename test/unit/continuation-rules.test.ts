import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { EntityRegistry, SCHEMAS_DIR } from '../../src/server/engine/entity-registry.js'
import { checkContinuations } from '../../src/server/engine/continuation-rules.js'
import { buildEntityModel, type EntityFile, type EntityModel } from '../../src/shared/metadata/entity-model.js'
import { documentHeaderFile } from '../../src/shared/metadata/document-model.js'

/**
 * The declarations by which one document continues another are checked at start-up: the settlement
 * files declare them (both sides), and a file naming a field, condition or document that is not there
 * stops the start with its name.
 */
const read = (name: string): EntityFile => JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'documents', `${name}.json`), 'utf8')) as EntityFile
const headerOf = (file: EntityFile): EntityModel => buildEntityModel(documentHeaderFile(file))

describe('continuation rules (defaultAfter, madeFrom, make)', () => {
  const registry = new EntityRegistry()

  it('both check sheets continue their party’s last one and make the settle sheet that is made from them', () => {
    for (const [check, settle, party] of [
      ['settleCheckSheet', 'settleSheet', 'supplierId'],
      ['customerSettleCheckSheet', 'customerSettleSheet', 'customerId'],
    ]) {
      const header = registry.get(check)
      expect(header.byName.get('startDate')?.defaultAfter).toEqual({ party, last: 'endDate', orFirstCandidate: true })
      expect(header.byName.get('endDate')?.defaultFrom).toBe('today')
      expect(header.file.document?.rowActions?.map((a) => [a.make, a.statuses])).toEqual([[settle, [3]]])
      expect(registry.get(settle).file.document?.madeFrom).toEqual({ document: check, copy: [party, 'startDate', 'endDate'], line: true })
    }
  })

  const entities = new Map<string, EntityModel>()
  const entityOf = (name: string) => entities.get(name)
  const check = (file: EntityFile) => {
    const model = headerOf(file)
    entities.set(model.name, model)
    return () => checkContinuations(model, entityOf)
  }
  entities.set('settleSheet', headerOf(read('settle-sheet')))
  entities.set('settleCheckSheet', headerOf(read('settle-check-sheet')))

  it('refuses a date rule on a party the list does not filter by, or following a field that is no date', () => {
    const noFilter = read('settle-check-sheet')
    noFilter.views!.list!.query = noFilter.views!.list!.query!.filter((q) => typeof q === 'string' || q.field !== 'supplierId')
    expect(check(noFilter)).toThrow(/entity settleCheckSheet: field startDate defaultAfter needs/)
    const notDate = read('settle-check-sheet')
    notDate.fields.startDate.defaultAfter = { party: 'supplierId', last: 'description' }
    expect(check(notDate)).toThrow(/field startDate defaultAfter needs/)
    const noCandidates = read('settle-check-sheet')
    delete noCandidates.document!.lines.pick
    expect(check(noCandidates)).toThrow(/orFirstCandidate needs line candidates of the party supplierId/)
  })

  it('refuses madeFrom of an unknown document or field, and a make of a document not made from this one', () => {
    const unknown = read('settle-sheet')
    unknown.document!.madeFrom = { document: 'checkSheetTypo', copy: ['supplierId'] }
    expect(check(unknown)).toThrow(/entity settleSheet: madeFrom names unknown document checkSheetTypo/)
    const field = read('settle-sheet')
    field.document!.madeFrom = { document: 'settleCheckSheet', copy: ['supplierId', 'totalPayedAmount'] }
    expect(check(field)).toThrow(/madeFrom copies totalPayedAmount, not a field of both documents/)
    const lineWithoutParty = read('settle-sheet')
    lineWithoutParty.document!.madeFrom = { document: 'settleCheckSheet', copy: ['startDate'], line: true }
    expect(check(lineWithoutParty)).toThrow(/madeFrom line needs line candidates whose party is copied/)
    const make = read('settle-check-sheet')
    make.document!.rowActions = [{ label: '结算', permission: 'settle:sheet:add', statuses: [3], make: 'receiveSheet' }]
    entities.set('receiveSheet', headerOf(read('receive-sheet')))
    expect(check(make)).toThrow(/row action 结算 makes receiveSheet, which is not madeFrom settleCheckSheet/)
  })
})
