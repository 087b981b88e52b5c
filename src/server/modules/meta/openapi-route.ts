import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../platform/routes.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { pageArgs } from '../../platform/page-args.js'
import { checkConditions, type ConditionField } from '../../engine/condition-values.js'
import { apiDocs, type ApiCallRow } from '../../../shared/contracts/meta.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

export const OPENAPI_PATH = '/openapi.json'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

interface Operation {
  tags?: string[]
  summary?: string
  'x-permissions'?: string[]
  'x-access'?: string
}

/** The calls of a document, in the order of their paths (each path's methods as METHODS orders them). */
const rowsOf = new WeakMap<object, ApiCallRow[]>()
function callRows(document: { paths: Record<string, Record<string, Operation>> }): ApiCallRow[] {
  let rows = rowsOf.get(document)
  if (!rows) {
    rows = Object.entries(document.paths)
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([path, operations]) =>
        Object.entries(operations)
          .map(([method, op]) => ({ method: method.toUpperCase(), op }))
          .sort((a, b) => METHODS.indexOf(a.method) - METHODS.indexOf(b.method))
          .map(({ method, op }) => ({
            id: `${method} ${path}`,
            tag: op.tags?.[0] ?? '',
            method,
            path,
            summary: op.summary ?? '',
            permissions: op['x-permissions'] ?? [],
            access: op['x-access'] ?? 'login',
          })),
      )
    rowsOf.set(document, rows)
  }
  return rows
}

/** The index's one search item: any text, a list or an object refused (condition-values.ts). */
const KEYWORD: ConditionField = { name: 'keyword', label: '关键字', kind: 'text' }

/**
 * `GET /cloud-api/openapi.json`: the OpenAPI document of every call (app.openApi), for any signed-in
 * user (an integrator or the 接口文档 page): it names paths, shapes and permission keys, no data, and
 * a call it lists still refuses a caller without the key. `GET /development/api-docs/query`: its calls as
 * 接口文档 lists them, searched by a part of the method and path, the summary or a key.
 */
export function openApiRoute(app: FastifyInstance): void {
  defineRoute(app, {
    method: 'GET',
    url: OPENAPI_PATH,
    access: 'login',
    doc: { answer: 'json' },
    handler: async ({ reply }) => reply.type('application/json').send(app.openApi()),
  })

  defineCallRoute(app, apiDocs.query, {
    access: [PERMISSION.development.apiDocs.query],
    handler: async ({ params }) => {
      const { pageIndex, pageSize } = pageArgs({ ...params })
      checkConditions([KEYWORD], { ...params }, app.services.registry.enums)
      const keyword = String(params.keyword ?? '').trim().toLowerCase()
      const rows = callRows(app.openApi() as { paths: Record<string, Record<string, Operation>> }).filter(
        (r) => !keyword || r.id.toLowerCase().includes(keyword) || r.summary.toLowerCase().includes(keyword) || r.permissions.some((p) => p.toLowerCase().includes(keyword)),
      )
      return { pageIndex, pageSize, totalCount: rows.length, datas: rows.slice((pageIndex - 1) * pageSize, pageIndex * pageSize) }
    },
  })
}
