import fs from 'node:fs'
import path from 'node:path'
import { Ajv, type ValidateFunction } from 'ajv'
import type { EntityFile } from '../../shared/generated/entity.js'
import type { Enumeration, EnumsFile, Item } from '../../shared/generated/enums.js'
import { AUDIT_FIELDS, buildEntityModel, type EntityModel } from '../../shared/metadata/entity-model.js'
import { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import { isPatternName } from '../../shared/metadata/patterns.js'
import { documentHeaderFile, documentLinesFile } from '../../shared/metadata/document-model.js'
import { checkContinuations } from './continuation-rules.js'

/** The project's schemas/ directory, found upwards from this module (src/server/engine/ or the dist-server/ bundle). */
export const SCHEMAS_DIR = findSchemas(import.meta.dirname)

function findSchemas(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'schemas', 'enums.json'))) return path.join(dir, 'schemas')
    if (path.dirname(dir) === dir) throw new Error(`schemas/enums.json not found above ${from}`)
  }
}

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T
}

/**
 * A meta-schema's validator (`schemas/meta/<name>.schema.json`), compiled once per process: the files are the
 * build's, and compiling them took a fifth of an app's start, which a process that starts many apps (the API
 * tests: one per file) paid every time. The registry and the code generator check entity files with it.
 */
const metaValidators = new Map<string, ValidateFunction>()
export function compileMeta(name: 'entity' | 'enums'): ValidateFunction {
  let validate = metaValidators.get(name)
  if (!validate) {
    const ajv = new Ajv({ allErrors: true, strict: false })
    validate = ajv.compile(readJson(path.join(SCHEMAS_DIR, 'meta', `${name}.schema.json`)))
    metaValidators.set(name, validate)
  }
  return validate
}

/**
 * All metadata of the running app: enumerations and entity models, validated against the meta-schemas
 * at start-up so a broken file stops the server with a clear message instead of failing a request.
 */
export class EntityRegistry {
  readonly enums: EnumCatalog
  readonly enumsFile: EnumsFile
  private readonly entities = new Map<string, EntityModel>()
  private readonly pickers = new Map<string, EntityModel>()
  /** The file each entity was read from (start-up messages name it). */
  private readonly files = new Map<string, string>()

  constructor(extraDirs: string[] = []) {
    this.enumsFile = readJson<EnumsFile>(path.join(SCHEMAS_DIR, 'enums.json'))
    const enumErrors = compileMeta('enums')
    if (!enumErrors(this.enumsFile)) throw new Error(`schemas/enums.json: ${JSON.stringify(enumErrors.errors)}`)
    this.enums = new EnumCatalog(this.enumsFile)

    const validate = compileMeta('entity')
    const dirs = [path.join(SCHEMAS_DIR, 'entities'), path.join(SCHEMAS_DIR, 'documents'), ...extraDirs]
    for (const dir of dirs) {
      if (!fs.existsSync(dir)) continue
      for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
        const file = path.join(dir, name)
        const json = readJson<EntityFile>(file)
        if (!validate(json)) throw new Error(`${file}: ${validate.errors?.map((e) => `${e.instancePath} ${e.message}`).join('; ')}`)
        if (json.document) {
          // A document is two entities: the header (with the engine's columns) and its lines.
          this.add(buildEntityModel(documentHeaderFile(json)), file)
          this.add(buildEntityModel(documentLinesFile(json)), file)
        } else this.add(buildEntityModel(json), file)
      }
    }
    for (const entity of this.entities.values()) this.checkReferences(entity)
  }

  private add(entity: EntityModel, file: string) {
    if (this.entities.has(entity.name)) throw new Error(`${file}: entity ${entity.name} defined twice`)
    this.entities.set(entity.name, entity)
    this.files.set(entity.name, file)
    const kind = entity.file.views?.picker?.kind
    if (kind) {
      if (this.pickers.has(kind)) throw new Error(`${file}: picker kind ${kind} defined twice`)
      this.pickers.set(kind, entity)
    }
  }

  private checkReferences(entity: EntityModel) {
    const where = `entity ${entity.name}`
    const known = (f: string) => entity.byName.has(f) || (AUDIT_FIELDS as readonly string[]).includes(f)
    for (const field of entity.fields) {
      if (field.type === 'enum' && (!field.enum || !this.enums.has(field.enum)))
        throw new Error(`${where}: field ${field.name} names unknown enumeration ${field.enum}`)
      if (field.enum && !this.enums.has(field.enum)) throw new Error(`${where}: unknown enumeration ${field.enum}`)
      if (field.type === 'ref' && (!field.ref || !this.entities.has(field.ref)))
        throw new Error(`${where}: field ${field.name} refers to unknown entity ${field.ref}`)
      if (field.pattern && !isPatternName(field.pattern)) throw new Error(`${where}: unknown pattern ${field.pattern}`)
      if (field.derive && !entity.byName.has(field.derive.from)) throw new Error(`${where}: derive from unknown ${field.derive.from}`)
      if (field.defaultDays) {
        const [name, days] = field.defaultDays.split('.')
        const setting = this.entities.get(name)
        if (field.defaultFrom !== 'today' || !setting?.file.singleton || setting.byName.get(days)?.type !== 'integer')
          throw new Error(`${where}: field ${field.name} counts its default from ${field.defaultDays}, not an integer of a settings entity (or defaultFrom is not today)`)
      }
      for (const to of Object.values(field.copies ?? {}))
        if (field.type !== 'ref' || !entity.byName.has(to)) throw new Error(`${where}: field ${field.name} copies into unknown ${to}`)
    }
    const views = entity.file.views ?? {}
    for (const from of Object.keys(views.picker?.fills ?? {}))
      if (!entity.byName.has(from)) throw new Error(`${where}: picker fills from unknown ${from}`)
    const names = [
      ...[views.list, ...Object.values(views.lists ?? {})].flatMap((list) => [...(list?.columns ?? []), ...(list?.query ?? [])]),
      ...(views.form?.items ?? []),
      ...(views.picker?.columns ?? []),
      ...(views.picker?.filters ?? []),
      ...(views.export ?? []),
    ].map((x) => (typeof x === 'string' ? x : x.field))
    for (const name of names) if (!known(name)) throw new Error(`${where}: view names unknown field ${name}`)
    if (entity.parentField && !entity.byName.has(entity.parentField)) throw new Error(`${where}: unknown tree parent`)
    checkContinuations(entity, (name) => this.entities.get(name))
  }

  /**
   * Adds an item to an enumeration at start-up, before the first request (a settlement kind whose file
   * declares a code the spec's list lacks); the catalogue, the codec and the metadata bundle read it from then on.
   */
  addEnumItem(name: string, item: Item): void {
    const enumeration = this.enumsFile[name] as Enumeration | undefined
    if (!enumeration || typeof enumeration !== 'object') throw new Error(`unknown enumeration ${name}`)
    if (enumeration.items.some((i) => String(i.code) === String(item.code))) throw new Error(`${name} has code ${String(item.code)} already`)
    enumeration.items.push(item)
  }

  get(name: string): EntityModel {
    const entity = this.entities.get(name)
    if (!entity) throw new Error(`unknown entity ${name}`)
    return entity
  }

  find(name: string): EntityModel | undefined {
    return this.entities.get(name)
  }

  /** The file an entity was read from. */
  fileOf(name: string): string | undefined {
    return this.files.get(name)
  }

  picker(kind: string): EntityModel | undefined {
    return this.pickers.get(kind)
  }

  /** Header entities of the documents. */
  documents(): EntityModel[] {
    return this.all().filter((e) => e.file.document)
  }

  all(): EntityModel[] {
    return [...this.entities.values()]
  }
}
