import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { EntityFile } from '../../src/shared/generated/entity.js'
import type { EnumsFile } from '../../src/shared/generated/enums.js'
import { buildEntityModel, type EntityModel } from '../../src/shared/metadata/entity-model.js'
import { documentHeaderFile } from '../../src/shared/metadata/document-model.js'
import { EnumCatalog } from '../../src/shared/metadata/enum-catalog.js'
import type { EntityLookup } from '../../src/client/runtime/picker-kind.js'

const schemas = path.resolve(import.meta.dirname, '../../schemas')

/** The real entity files and enumerations, modelled as the browser's meta bundle does. */
export function loadClientMeta(): { entity: (name: string) => EntityModel; lookup: EntityLookup; enums: EnumCatalog } {
  const dir = path.join(schemas, 'entities')
  const models = new Map<string, EntityModel>()
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const model = buildEntityModel(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as EntityFile)
    models.set(model.name, model)
  }
  // Documents as the bundle delivers them: their header files with the engine's columns.
  const documents = path.join(schemas, 'documents')
  for (const file of readdirSync(documents).filter((f) => f.endsWith('.json'))) {
    const model = buildEntityModel(documentHeaderFile(JSON.parse(readFileSync(path.join(documents, file), 'utf8')) as EntityFile))
    models.set(model.name, model)
  }
  const enums = new EnumCatalog(JSON.parse(readFileSync(path.join(schemas, 'enums.json'), 'utf8')) as EnumsFile)
  return {
    entity: (name) => {
      const m = models.get(name)
      if (!m) throw new Error(`unknown entity ${name}`)
      return m
    },
    lookup: (name) => models.get(name),
    enums,
  }
}
