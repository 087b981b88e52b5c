/**
 * Which properties of `row` a list formatter reads, so a page of cells crosses into QuickJS with only
 * those (parsing the whole rows dominates a batch: 10,000 rows of a product list are ~1.5 MB of JSON).
 * Conservative by construction: any use of the row other than `row.name` / `row?.name` (passing it on,
 * indexing it, destructuring it, `arguments`) answers `undefined`, meaning "send the whole row".
 */
const IDENT = /^[A-Za-z_$][\w$]*$/

const HEAD = /^\s*(?:async\s+)?(?:function\s*[\w$]*\s*)?\(([^)]*)\)\s*(?:=>|\{)/

/** The second parameter's name when the source is a function expression (`(v, r) => …`, `function (v, r) {…}`). */
function secondParam(source: string): string | undefined {
  const m = HEAD.exec(source)
  if (!m) return undefined
  const name = m[1].split(',')[1]?.trim()
  return name && IDENT.test(name) ? name : undefined
}

function propertiesRead(code: string, name: string): Set<string> | undefined {
  const found = new Set<string>()
  const use = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g')
  for (const m of code.matchAll(use)) {
    const before = code.slice(0, m.index)
    if (/\.\.\.\s*$/.test(before)) return undefined // {...row}: the whole row
    if (/\.\s*$/.test(before)) continue // x.row: another object's property
    const prop = /^\s*(?:\?\.|\.)\s*([A-Za-z_$][\w$]*)/.exec(code.slice((m.index ?? 0) + name.length))
    if (!prop) return undefined
    found.add(prop[1])
  }
  return found
}

/** The row properties a formatter reads, or `undefined` when it may use the row in any other way. */
export function rowFieldsRead(source: string, bodyParam = 'row'): string[] | undefined {
  if (/(?<![\w$.])arguments(?![\w$])/.test(source)) return undefined
  const names = new Set([bodyParam, secondParam(source)].filter((n): n is string => Boolean(n)))
  // After a function expression's parameter list (where the names are declared, not used).
  const code = source.slice(HEAD.exec(source)?.[0].length ?? 0)
  const fields = new Set<string>()
  for (const name of names) {
    const read = propertiesRead(code, name)
    if (!read) return undefined
    for (const f of read) fields.add(f)
  }
  return [...fields]
}

/** The row with only these properties (a row that is not a plain object is sent as is). */
export function projectRow(row: unknown, fields: readonly string[] | undefined): unknown {
  if (!fields || !row || typeof row !== 'object' || Array.isArray(row)) return row
  const out: Record<string, unknown> = {}
  for (const f of fields) if (Object.prototype.hasOwnProperty.call(row, f)) out[f] = (row as Record<string, unknown>)[f]
  return out
}
