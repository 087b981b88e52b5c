import JSZip from 'jszip'
import type { JSONSchema } from 'json-schema-to-typescript'
import { loadSchemaToTs } from '../platform/heavy-modules.js'
import type { EntityFile, Field, FormItem, ListColumn, QueryParam } from '../../shared/generated/entity.js'
import { snakeCase } from '../../shared/metadata/entity-model.js'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import { entityWireSchema } from '../../shared/metadata/wire-schema.js'
import { compileMeta } from '../engine/entity-registry.js'
import { invalid } from '../platform/errors.js'
import { fieldOfColumn, type DataEntityColumn } from './gen-data-types.js'

/**
 * Code generation from a data entity: exactly the files a developer adds by hand for a new business
 * object, i.e. one entity file for schemas/entities/ (table, fields, API family, list and form views)
 * and the wire record type `npm run gen` derives from it. Fields come from `fieldOfColumn`, the
 * mapping the live custom list uses too.
 */

export interface GeneratedFile {
  fileName: string
  content: string
}

export interface DataEntityForGeneration {
  name: string
  tableName: string
  description?: unknown
  columns: DataEntityColumn[]
}

const AUDIT_COLUMNS = new Set(['create_by', 'create_by_id', 'create_time', 'update_by', 'update_by_id', 'update_time'])
const camel = (s: string) => s.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())
const kebab = (s: string) => s.replace(/_/g, '-')

/** The entity file of a data entity (validated against schemas/meta/entity.schema.json). */
export function entityFileOf(source: DataEntityForGeneration, enums: EnumCatalog): EntityFile {
  const table = source.tableName
  if (!/^[a-z][a-z0-9_]*$/.test(table)) throw invalid('数据表名只能由小写字母、数字和下划线组成，才能生成代码')
  const fields: Record<string, Field> = {}
  for (const column of [...source.columns].sort((a, b) => a.columnOrder - b.columnOrder)) {
    if (column.columnName === 'id' || AUDIT_COLUMNS.has(column.columnName)) continue
    if (!/^[a-z][a-z0-9_]*$/.test(column.columnName)) continue
    const name = camel(column.columnName)
    const field: Field = { ...fieldOfColumn(column, enums) }
    if (snakeCase(name) !== column.columnName) field.column = column.columnName
    if (name === 'available' && field.type === 'boolean') Object.assign(field, { enum: 'AVAILABLE', required: true, default: true })
    fields[name] = field
  }
  if (!Object.keys(fields).length) throw invalid('数据实体没有可生成的字段')
  const names = Object.keys(fields)
  const columns: ListColumn[] = names.slice(0, 12)
  const query: QueryParam[] = names
    .filter((n) => ['string', 'enum', 'boolean'].includes(fields[n].type))
    .slice(0, 4)
    .map((n) => ({ field: n, op: fields[n].type === 'string' ? 'contains' : 'eq' }))
  const items: FormItem[] = names.map((n) => (fields[n].type === 'text' ? { field: n, span: 24 } : n))
  const file: EntityFile = {
    $schema: '../meta/entity.schema.json',
    name: camel(table),
    table,
    label: { 'zh-CN': source.name },
    api: { base: `/${table.replace(/_/g, '/')}`, permission: `generated:${kebab(table)}` },
    fields,
    views: {
      list: { columns, query, toolbar: ['add', ...(fields.available ? (['enableBatch', 'unableBatch'] as const) : [])], row: ['modify', 'detail', 'delete'] },
      form: { items },
    },
  }
  const check = compileMeta('entity')
  if (!check(file)) throw invalid(`生成的实体文件不符合规范：${check.errors?.map((e) => `${e.instancePath} ${e.message}`).join('; ')}`)
  return file
}

/** The files a developer adds: the entity file, and the record type `npm run gen` will derive from it. */
export async function generateFiles(source: DataEntityForGeneration, enums: EnumCatalog): Promise<GeneratedFile[]> {
  const file = entityFileOf(source, enums)
  const enumItems: Record<string, { items: { code: unknown }[] }> = {}
  for (const f of Object.values(file.fields)) if (f.enum) enumItems[f.enum] = { items: enums.items(f.enum).map((i) => ({ code: i.code })) }
  const schema = entityWireSchema(file, enumItems)
  const type = await (await loadSchemaToTs()).compile(schema as JSONSchema, String(schema.title), {
    bannerComment: '/* The wire record of this entity, as `npm run gen` writes it to src/shared/generated/entities.ts. */',
    style: { singleQuote: true, semi: false, printWidth: 120 },
  })
  return [
    { fileName: `schemas/entities/${kebab(file.table)}.json`, content: `${JSON.stringify(file, null, 2)}\n` },
    { fileName: `src/shared/generated/${kebab(file.table)}.ts`, content: type },
  ]
}

export async function zipFiles(files: GeneratedFile[]): Promise<Buffer> {
  const zip = new JSZip()
  for (const f of files) zip.file(f.fileName, f.content)
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' })
}
