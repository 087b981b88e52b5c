import type { FastifyInstance } from 'fastify'
import { idsFrom } from '../../engine/request-values.js'
import { defineRoute } from '../../platform/routes.js'
import { defineListRoute } from '../../engine/list-routes.js'
import type { Services } from '../../engine/services.js'
import { regionByCode, regionRows, type RegionRow } from '../../../shared/region/regions.js'
import { routeOf } from '../../platform/call-routes.js'
import { pickerCalls } from '../../../shared/contracts/picker-calls.js'

const CITIES = pickerCalls('city')

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '')

/**
 * The city cascader's picker: `GET /selector/city` answers `{datas, totalCount}` of rows
 * `{id: code, code, name, parentId, level}`; filters `parentId` (children of one region; `0` for the
 * provinces), `level`, `code` (prefix) and `name` (contains). All rows unless `pageSize` is given, since
 * the cascader loads the whole tree at once. `POST /selector/city/load` answers the rows of the ids.
 */
export function registerRegionSelector(app: FastifyInstance, services: Services): void {
  defineListRoute(app, services, {
    ...routeOf(CITIES.page),
    conditions: [
      { name: 'parentId', label: '上级地区', kind: 'id' },
      { name: 'level', label: '级别', kind: 'integer' },
    ],
    access: 'login',
    handler: async ({ query }) => {
      let list = regionRows()
      const parentId = text(query.parentId)
      if (parentId) list = list.filter((r) => (parentId === '0' ? r.parentId === null : r.parentId === parentId))
      const level = Number(text(query.level))
      if (Number.isInteger(level) && level > 0) list = list.filter((r) => r.level === level)
      const code = text(query.code)
      if (code) list = list.filter((r) => r.code.startsWith(code))
      const name = text(query.name)
      if (name) list = list.filter((r) => r.name.includes(name))
      const size = Math.floor(Number(text(query.pageSize)))
      if (!(size > 0)) return { pageIndex: 1, pageSize: list.length, totalCount: list.length, datas: list }
      const pageSize = Math.min(size, 5000)
      const pageIndex = Math.max(1, Math.floor(Number(text(query.pageIndex))) || 1)
      return { pageIndex, pageSize, totalCount: list.length, datas: list.slice((pageIndex - 1) * pageSize, pageIndex * pageSize) }
    },
  })
  defineRoute(app, {
    ...routeOf(CITIES.load),
    access: 'login',
    handler: async ({ body, query }) => {
      return idsFrom(body, query)
        .map((id) => regionByCode(id.trim()))
        .filter((r): r is RegionRow => Boolean(r))
    },
  })
}
