import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'
import { linesEntityName } from '../../shared/metadata/document-model.js'
import { operationKeys } from '../../shared/metadata/operation-keys.js'
import type { EntityRegistry } from './entity-registry.js'

/**
 * Who may call `/selector/{kind}` (and its `/load`), derived once from `schemas/`: whoever may query
 * the picked entity, plus whoever may use a screen that offers the picker, i.e.
 * - the add/modify keys of every entity or document whose form has a ref field chosen with it
 *   (a document's line fields count for the document; a document with agreed payments offers the
 *   picker of its payment rows' pay type);
 * - the query key of every list whose search form has such a field;
 * - the keys of every picker whose own search form (filters) offers it, since its dialog shows it;
 * - a multiple ref (a set of groups) offers the pickers of the groups' members (entities whose picker
 *   filters by a required ref to the group), because choosing groups then lists their members.
 * - the add/modify keys of an entity for the pickers a field declares in `offersPickers` (a text field
 *   filled through a picker, such as a stock-taking plan's categories or brands);
 * The picker view's own `permission`, when declared, is one more key. Nothing here is hand-kept.
 */
export function pickerAccess(registry: EntityRegistry): Map<string, string[]> {
  const entities = registry.all()
  const keys = new Map<string, Set<string>>()
  const add = (kind: string | undefined, more: Iterable<string>) => {
    if (!kind) return
    const set = keys.get(kind) ?? new Set<string>()
    for (const k of more) set.add(k)
    keys.set(kind, set)
  }
  const kindOf = (field: FieldModel): string | undefined => {
    if (field.type !== 'ref') return undefined
    if (field.picker) return field.picker
    return field.ref ? registry.find(field.ref)?.file.views?.picker?.kind : undefined
  }
  const writeKeys = (entity: EntityModel) => [...operationKeys(entity, 'create'), ...operationKeys(entity, 'modify')]
  /** The entity whose form writes this one: itself, or the document of a line entity. */
  const lineOwner = new Map<string, EntityModel>()
  for (const doc of registry.documents()) lineOwner.set(linesEntityName(doc.name), doc)
  /** Members of a group: pickers filtering by a required ref to the group entity. */
  const memberPickers = new Map<string, string[]>()

  for (const entity of entities) {
    const picker = entity.file.views?.picker
    if (!picker) continue
    add(picker.kind, operationKeys(entity, 'query'))
    if (picker.permission) add(picker.kind, [picker.permission])
    for (const filter of picker.filters ?? []) {
      const field = entity.byName.get(filter.field)
      if (field?.type === 'ref' && field.ref && field.requiredMessage)
        memberPickers.set(field.ref, [...(memberPickers.get(field.ref) ?? []), picker.kind])
    }
  }

  for (const entity of entities) {
    const owner = entity.file.api ? entity : lineOwner.get(entity.name)
    if (!owner) continue
    const write = writeKeys(owner)
    for (const field of entity.fields) {
      for (const kind of field.offersPickers ?? []) add(kind, write)
      if (field.readOnly || field.type !== 'ref') continue
      add(kindOf(field), write)
      if (field.multiple && field.ref) for (const member of memberPickers.get(field.ref) ?? []) add(member, write)
    }
    if (entity.file.api)
      for (const param of entity.file.views?.list?.query ?? []) {
        const field = entity.byName.get(param.field)
        if (field) add(kindOf(field), operationKeys(entity, 'query'))
      }
    if (entity.file.document?.agreedPayments === true) {
      const payTypeField = registry.find('orderPayType')?.fields.find((f) => f.type === 'ref')
      if (payTypeField) add(kindOf(payTypeField), write)
    }
  }

  // A picker's search form offers the pickers of its filters: its holders may use those too.
  for (let changed = true; changed; ) {
    changed = false
    for (const entity of entities) {
      const picker = entity.file.views?.picker
      if (!picker) continue
      const holders = keys.get(picker.kind) ?? new Set<string>()
      for (const filter of picker.filters ?? []) {
        const field = entity.byName.get(filter.field)
        const kind = field && kindOf(field)
        if (!kind || kind === picker.kind) continue
        const before = keys.get(kind)?.size ?? 0
        add(kind, holders)
        if ((keys.get(kind)?.size ?? 0) !== before) changed = true
      }
    }
  }
  return new Map([...keys].map(([kind, set]) => [kind, [...set].sort()]))
}

const computed = new WeakMap<EntityRegistry, Map<string, string[]>>()

/** The keys that may call the picker of a kind (computed once per registry); none: the admin's. */
export function pickerKeys(registry: EntityRegistry, kind: string): string[] {
  let all = computed.get(registry)
  if (!all) computed.set(registry, (all = pickerAccess(registry)))
  return all.get(kind) ?? []
}
