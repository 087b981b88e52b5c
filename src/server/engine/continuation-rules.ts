import type { EntityModel } from '../../shared/metadata/entity-model.js'

/**
 * Start-up checks of the declarations by which one document continues another (a check sheet's
 * `defaultAfter` dates, a settle sheet `madeFrom` its check sheet, the check sheet's `make` row action):
 * a file naming a field, list condition or document that is not there stops the start, as a hook does.
 */
export function checkContinuations(entity: EntityModel, entityOf: (name: string) => EntityModel | undefined): void {
  const where = `entity ${entity.name}`
  const section = entity.file.document
  const candidates = section?.lines.pick?.candidates
  for (const field of entity.fields) {
    const rule = field.defaultAfter
    if (!rule) continue
    const party = entity.byName.get(rule.party)
    const last = entity.byName.get(rule.last)
    const byParty = entity.file.views?.list?.query?.some((q) => q.field === rule.party && (q.op ?? 'eq') === 'eq')
    if (!section || field.type !== 'date' || party?.type !== 'ref' || last?.type !== 'date' || !byParty)
      throw new Error(`${where}: field ${field.name} defaultAfter needs a document date, a ref party its list filters by (eq) and a date field to follow`)
    if (rule.orFirstCandidate && candidates?.party !== rule.party)
      throw new Error(`${where}: field ${field.name} defaultAfter orFirstCandidate needs line candidates of the party ${rule.party}`)
  }
  const made = section?.madeFrom
  if (made) {
    const source = entityOf(made.document)
    if (!source?.file.document) throw new Error(`${where}: madeFrom names unknown document ${made.document}`)
    for (const name of made.copy)
      if (!entity.byName.has(name) || !source.byName.has(name)) throw new Error(`${where}: madeFrom copies ${name}, not a field of both documents`)
    if (made.line && (!candidates?.party || !made.copy.includes(candidates.party)))
      throw new Error(`${where}: madeFrom line needs line candidates whose party is copied`)
  }
  for (const action of section?.rowActions ?? []) {
    for (const name of Object.keys(action.where ?? {}))
      if (!entity.byName.has(name)) throw new Error(`${where}: row action ${action.label} shows where ${name}, not a field of ${entity.name}`)
    if (!action.make) continue
    if (entityOf(action.make)?.file.document?.madeFrom?.document !== entity.name)
      throw new Error(`${where}: row action ${action.label} makes ${action.make}, which is not madeFrom ${entity.name}`)
  }
}
