import type { FastifyInstance } from 'fastify'
import type { EntityRegistry } from '../engine/entity-registry.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { entityWireSchema, type WireEntity } from '../../shared/metadata/wire-schema.js'
import callSchemaFile from '../../shared/generated/call-schemas.json'
import { API_PREFIX } from './routes.js'
import type { Access } from './routes.js'
import type { ApiRouteConfig, RouteDoc } from './route-doc.js'

type Schema = Record<string, unknown>

interface CallSchema {
  method: string
  path: string
  paramsIn: 'query' | 'body' | 'both'
  params?: Schema
  answer: Schema
}

const CALLS = (callSchemaFile as { calls: Record<string, CallSchema> }).calls
const DEFS = (callSchemaFile as { defs: Record<string, Schema> }).defs

/** One API route as Fastify registered it. */
export interface ApiRoute {
  method: string
  /** Under /cloud-api, without the prefix. */
  path: string
  access: Access
  doc: RouteDoc
}

/**
 * Every route under /cloud-api as it is registered (its access and what it says of itself): the
 * OpenAPI document is read from here, so a served call cannot be missing from it. Install before routes.
 */
export function collectApiRoutes(app: FastifyInstance): ApiRoute[] {
  const routes: ApiRoute[] = []
  app.addHook('onRoute', (route) => {
    const config = route.config as ApiRouteConfig | undefined
    if (!config?.access || !route.url.startsWith(API_PREFIX + '/')) return
    for (const method of [route.method].flat())
      if (method !== 'HEAD') routes.push({ method, path: route.url.slice(API_PREFIX.length), access: config.access, doc: config.doc ?? {} })
  })
  return routes
}

/** The messages any call may answer, by HTTP status. */
const COMMON: Record<number, string[]> = {
  400: ['请求参数不能包含空字符（\\0）', '请求参数嵌套层级过深', '请求参数格式错误'],
  500: ['系统出现内部错误，请联系系统管理员！'],
}
const SIGNED_IN: Record<number, string[]> = { 401: ['请先登录！', '登录已过期，请重新登录！', '接口令牌无效或已过期！'] }
const TOKEN_REFUSALS: Record<number, string[]> = { 429: ['调用过于频繁，请稍后再试！'] }

/** Component name of an entity's record. */
const recordName = (entity: string) => `Record.${entity}`

/** The entity's wire record with every declared field allowed to be empty (a stored row may lack any of them). */
function recordSchema(entity: EntityModel, registry: EntityRegistry): Schema {
  const enums = registry.enumsFile as unknown as Record<string, { items?: { code: unknown }[] }>
  const wire = entityWireSchema(entity.file as unknown as WireEntity, enums, (ref) => Boolean(registry.find(ref)?.byName.get('code'))) as Schema
  const properties: Record<string, Schema> = {}
  for (const [name, prop] of Object.entries(wire.properties as Record<string, Schema>)) {
    if (name === 'id') properties[name] = { type: ['string', 'integer'] }
    else if (Array.isArray(prop.enum)) properties[name] = { ...prop, enum: [...new Set([...prop.enum, ...prop.enum.map(String), null])] }
    else if (typeof prop.type === 'string') properties[name] = { ...prop, type: prop.type === 'integer' ? ['integer', 'string', 'null'] : [prop.type, 'null'] }
    else properties[name] = prop
  }
  return { type: 'object', title: wire.title, description: wire.description, properties, additionalProperties: true }
}

/** The Chinese messages an entity file declares for its fields and guards (required, unique, pattern, delete guards…). */
function entityMessages(entity: EntityModel, record: boolean): string[] {
  const out = new Set<string>()
  if (record)
    for (const f of entity.fields) {
      if (f.requiredMessage) out.add(f.requiredMessage)
      if (f.uniqueMessage) out.add(f.uniqueMessage)
      for (const [key, value] of Object.entries(f)) if (key.endsWith('Message') && typeof value === 'string') out.add(value)
    }
  const walk = (value: unknown, key: string) => {
    if (typeof value === 'string') {
      if (key === 'message' || (!record && key.endsWith('Message'))) out.add(value)
    } else if (Array.isArray(value)) value.forEach((v) => walk(v, key))
    else if (value && typeof value === 'object' && key !== 'fields') for (const [k, v] of Object.entries(value)) walk(v, k)
  }
  walk(entity.file, '')
  return [...out]
}

const page = (row: Schema): Schema => ({
  type: 'object',
  required: ['datas', 'totalCount'],
  properties: { pageIndex: { type: 'integer' }, pageSize: { type: 'integer' }, totalCount: { type: 'integer' }, datas: { type: 'array', items: row } },
})

/** The answer (`data` of the envelope) of an engine family route, from its entity. */
function familyAnswer(doc: RouteDoc, ref: Schema, linesRef: Schema | undefined): Schema | 'file' {
  switch (doc.answer) {
    case 'page':
      return page(ref)
    case 'rows':
      return { type: 'array', items: ref }
    case 'page-or-rows':
      return { anyOf: [page(ref), { type: 'array', items: ref }] }
    case 'record':
      return linesRef ? { allOf: [ref, { type: 'object', properties: { details: { type: 'array', items: linesRef } } }] } : ref
    case 'id':
      return { type: ['string', 'integer'], description: '新记录的 id' }
    case 'file':
      return 'file'
    default:
      return { type: 'null' }
  }
}

function familyBody(doc: RouteDoc, ref: Schema): Schema | undefined {
  switch (doc.body) {
    case 'record':
      return ref
    case 'ids':
      return { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'object', properties: { id: { type: 'string' }, ids: { type: 'array', items: { type: 'string' } } } }] }
    case 'id':
      return { type: 'object', properties: { id: { type: 'string' } } }
    default:
      return undefined
  }
}

/** Query parameters of an object schema (each top-level property, optional unless required). */
function queryParameters(schema: Schema | undefined): Schema[] {
  if (!schema) return []
  const parts = Array.isArray(schema.allOf) ? (schema.allOf as Schema[]) : [schema]
  const out = new Map<string, Schema>()
  for (const part of parts) {
    const resolved = typeof part.$ref === 'string' ? DEFS[part.$ref.split('/').pop() as string] ?? {} : part
    const required = new Set((resolved.required as string[] | undefined) ?? [])
    for (const [name, prop] of Object.entries((resolved.properties as Record<string, Schema> | undefined) ?? {}))
      out.set(name, { name, in: 'query', required: required.has(name), schema: asQueryValue(prop) })
  }
  return [...out.values()]
}

/** A query value arrives as text: numbers and flags are written as their text. */
function asQueryValue(prop: Schema): Schema {
  if (prop.type === 'array') return { type: 'array', items: {} }
  if (prop.enum || prop.const !== undefined || ['string', 'number', 'integer', 'boolean'].includes(prop.type as string)) return prop
  return {}
}

const withRefs = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/'))

/** The envelope of a success with `data` as the call answers it. */
const envelopeOf = (data: Schema): Schema => ({
  type: 'object',
  required: ['code', 'msg', 'data'],
  properties: { code: { const: 200 }, msg: { type: 'string' }, data },
})

const operationId = (method: string, path: string) =>
  method.toLowerCase() + path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))

/**
 * The OpenAPI 3.1 document of every API route the app serves, derived from what each route says of
 * itself (route-doc.ts): hand routes from their contract's types (src/shared/generated/call-schemas.json,
 * written by `npm run gen` from src/shared/contracts), the engine's families from the entity files.
 * Permission keys are `x-permissions`; the Chinese messages a call can answer are `x-messages`.
 */
export function openApiDocument(routes: readonly ApiRoute[], registry: EntityRegistry, version: string): Schema {
  const schemas: Record<string, Schema> = withRefs(DEFS) as Record<string, Schema>
  const refOf = (entity: string): Schema => {
    const name = recordName(entity)
    const model = registry.find(entity)
    if (!model) return { type: 'object' }
    schemas[name] ??= recordSchema(model, registry)
    return { $ref: `#/components/schemas/${name}` }
  }
  // A refusal (status and its messages) is written once under components.responses and referred to by
  // every call that answers it: most calls share the same few, and written into each of ~1,000 calls they
  // were 60 % of the document and of what a reader (接口文档's Scalar) works through when it opens.
  const refusals = new Map<string, [name: string, response: Schema]>()
  const refusalRef = (status: number, list: string[]): Schema => {
    const key = `${status} ${list.join('\n')}`
    let known = refusals.get(key)
    if (!known) {
      const variants = [...refusals.values()].filter(([name]) => name.startsWith(`Refusal${status}`)).length
      known = [
        `Refusal${status}${variants ? `_${variants + 1}` : ''}`,
        {
          description: list.join('；'),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Refusal' }, examples: Object.fromEntries(list.map((msg, i) => [`m${i + 1}`, { value: { code: status, msg } }])) } },
        },
      ]
      refusals.set(key, known)
    }
    return { $ref: `#/components/responses/${known[0]}` }
  }
  const paths: Record<string, Record<string, Schema>> = {}
  for (const route of [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
    const { doc } = route
    const method = route.method.toLowerCase()
    const contract = doc.contract
    const call = contract ? CALLS[`${contract.method} ${contract.path}`] : undefined
    const entity = doc.entity ? registry.find(doc.entity) : undefined
    const ref = doc.entity ? refOf(doc.entity) : undefined
    let answer: Schema | 'file' | 'json' = {}
    let body: Schema | undefined
    let parameters: Schema[] = []
    const paramsIn = contract?.paramsIn ?? (route.method === 'GET' ? 'query' : 'body')
    if (doc.answer === 'json') answer = 'json'
    else if (doc.answer && ref) {
      answer = familyAnswer(doc, ref, doc.lines ? refOf(doc.lines) : undefined)
      body = familyBody(doc, ref)
      if (doc.answer === 'record' || doc.body === 'id') parameters.push({ name: 'id', in: 'query', required: doc.answer === 'record', schema: { type: 'string' } })
    } else if (call) {
      answer = call.answer.format === 'binary' || call.answer.$ref === '#/$defs/FileAnswer' ? 'file' : (withRefs(call.answer) as Schema)
      const params = call.params && (withRefs(call.params) as Schema)
      if (params && paramsIn === 'query') parameters = queryParameters(params)
      else if (params && paramsIn === 'body') body = params
      else if (params && paramsIn === 'both') {
        const both = params.properties as Record<string, Schema> | undefined
        parameters = queryParameters(both?.query)
        body = both?.body
      }
    }
    for (const name of doc.conditions ?? [])
      if (!parameters.some((p) => p.name === name)) parameters.push({ name, in: 'query', required: false, schema: {} })
    if (doc.answer === 'page' || doc.answer === 'page-or-rows' || doc.conditions)
      for (const name of ['pageIndex', 'pageSize'])
        if (!parameters.some((p) => p.name === name)) parameters.push({ name, in: 'query', required: false, schema: { type: 'integer', minimum: 1 } })
    if (route.method === 'GET' && body) {
      parameters = [...parameters, ...queryParameters(body)]
      body = undefined
    }

    const messages: Record<number, Set<string>> = {}
    const add = (byStatus: Record<number, string[]>) => {
      for (const [status, list] of Object.entries(byStatus)) for (const m of list) (messages[Number(status)] ??= new Set()).add(m)
    }
    add(COMMON)
    if (route.access !== 'public') add({ ...SIGNED_IN, ...TOKEN_REFUSALS })
    if (Array.isArray(route.access)) add({ 403: ['无权限'] })
    if (entity) add({ 400: entityMessages(entity, doc.body === 'record'), 404: doc.answer === 'record' || doc.body ? ['数据不存在！'] : [] })

    const responses: Record<string, Schema> = {
      200:
        answer === 'file'
          ? { description: '文件', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }
          : answer === 'json'
            ? { description: '文档本身（不在信封中）', content: { 'application/json': { schema: { type: 'object' } } } }
            : { description: '操作成功', content: { 'application/json': { schema: envelopeOf(answer) } } },
    }
    for (const [status, list] of Object.entries(messages).sort()) responses[status] = refusalRef(Number(status), [...list])
    const operation: Schema = {
      operationId: operationId(route.method, route.path),
      tags: [route.path.split('/')[1] ?? 'api'],
      summary: entity ? `${entity.label} ${route.path}` : route.path,
      ...(parameters.length ? { parameters } : {}),
      ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
      responses,
      security: route.access === 'public' ? [] : [{ authToken: [] }, { apiToken: [] }],
      'x-permissions': Array.isArray(route.access) ? [...route.access] : [],
      'x-access': Array.isArray(route.access) ? 'permission' : route.access,
      'x-messages': Object.entries(messages).flatMap(([status, list]) => [...list].map((msg) => ({ status: Number(status), msg }))),
    }
    ;(paths[route.path] ??= {})[method] = operation
  }
  schemas.Refusal = { type: 'object', required: ['code', 'msg'], properties: { code: { type: 'integer' }, msg: { type: 'string' }, field: { type: 'string' }, traceId: { type: 'string' } } }
  return {
    openapi: '3.1.0',
    info: {
      title: '星云 ERP 接口',
      version,
      description: '每个调用都答 `{code, msg, data}`；拒绝时答 `{code, msg}`（中文消息见各调用的 x-messages）。x-permissions 为调用所需的权限键之一。',
    },
    servers: [{ url: API_PREFIX }],
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      responses: Object.fromEntries([...refusals.values()].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))),
      securitySchemes: {
        authToken: { type: 'apiKey', in: 'header', name: 'X-Auth-Token', description: '登录会话的令牌' },
        apiToken: { type: 'http', scheme: 'bearer', description: '接口令牌（Authorization: Bearer …）' },
      },
    },
  }
}
