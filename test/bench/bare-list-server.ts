/**
 * The fixed-cost bench's yardstick: a bare Fastify process answering the 10-brand list with the same JSON as
 * the app (envelope, page fields, camelCase rows, booleans) from the same two prepared statements (count and
 * page) on the app's own database, with nothing else: no token, session, permission, engine or codec. Started
 * by fixed-cost.bench.ts with BARE_PORT and BARE_SQLITE (a tenant's file) or BARE_PG (a URL) + BARE_SCHEMA.
 */
import Fastify from 'fastify'
import Database from 'better-sqlite3'
import pg from 'pg'

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
type Row = Record<string, unknown>
const shape = (row: Row) => {
  const out: Row = {}
  for (const [k, v] of Object.entries(row)) out[camel(k)] = k === 'available' ? v === 1 || v === true : v
  return out
}

/** The entity's fields (the table also holds search-key columns, which the app never answers). */
const COLUMNS = 'id, code, name, short_name, logo, introduction, available, description, create_by, create_by_id, create_time, update_by, update_by_id, update_time'

let page: (size: number, offset: number) => Promise<{ count: number; rows: Row[] }>
if (process.env.BARE_SQLITE) {
  const db = new Database(process.env.BARE_SQLITE, { readonly: true })
  const count = db.prepare('select count(*) as n from base_data_product_brand')
  const rows = db.prepare(`select ${COLUMNS} from base_data_product_brand order by code limit ? offset ?`)
  page = async (size, offset) => ({ count: (count.get() as { n: number }).n, rows: rows.all(size, offset) as Row[] })
} else {
  pg.types.setTypeParser(1114, (v) => v.slice(0, 19))
  const pool = new pg.Pool({ connectionString: process.env.BARE_PG, max: 10 })
  const table = `${process.env.BARE_SCHEMA}.base_data_product_brand`
  page = async (size, offset) => {
    const [c, r] = await Promise.all([
      pool.query({ name: 'bare_count', text: `select count(*)::int as n from ${table}` }),
      pool.query({ name: 'bare_page', text: `select ${COLUMNS} from ${table} order by code limit $1 offset $2`, values: [size, offset] }),
    ])
    return { count: c.rows[0].n as number, rows: r.rows as Row[] }
  }
}

const app = Fastify()
app.get('/bare/brand/query', async (request) => {
  const q = request.query as { pageIndex?: string; pageSize?: string }
  const index = Number(q.pageIndex ?? 1)
  const size = Number(q.pageSize ?? 20)
  const { count, rows } = await page(size, (index - 1) * size)
  return { code: 200, msg: '操作成功！', data: { pageIndex: index, pageSize: size, totalCount: count, datas: rows.map(shape) } }
})
await app.listen({ port: Number(process.env.BARE_PORT), host: '127.0.0.1' })
console.log('ready')
