import fs from 'node:fs'
import path from 'node:path'
import Decimal from 'decimal.js'
import dayjs from 'dayjs'
import type { FastifyInstance } from 'fastify'
import { SCHEMAS_DIR } from '../engine/entity-registry.js'
import { setClock } from '../platform/clock.js'
import { parameter } from '../platform/parameters.js'
import { OPERATOR_TENANT_ID } from '../modules/system/seed.js'

/** Set in the operator tenant's parameters once the demo company exists: it is seeded once, never again. */
export const DEMO_MARKER = 'sys.demo-data'

interface Coded {
  code: string
  name: string
}
interface CategorySeed extends Coded {
  children?: CategorySeed[]
}
/** code, name, category code, brand code, supplier code, unit, spec, purchase, sale, retail price. */
type ProductSeed = [string, string, string, string, string, string, string, string, string, string]
interface DemoSeed {
  days: number
  taxRate: number
  categories: CategorySeed[]
  brands: Coded[]
  storeCenters: Coded[]
  suppliers: (Coded & { mnemonicCode: string })[]
  customers: (Coded & { mnemonicCode: string })[]
  members: (Coded & { gender: number; telephone: string; joinDay: string })[]
  products: ProductSeed[]
}

interface Product {
  id: string
  supplier: string
  purchasePrice: string
  salePrice: string
  retailPrice: string
}

/** Deterministic numbers (mulberry32), so every fresh start shows the same demo company. */
function random(seed: number) {
  let a = seed
  const next = () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  }
}

/**
 * A fresh start's demo company (issue 17 "First start"): warehouses, categories, brands, 55 products,
 * suppliers, customers and members, then `days` days of approved purchase orders with their receipts,
 * sale out and retail out sheets, so the workplace chart, stock, ledger and settlement screens have
 * content. Everything goes through the app's own routes as the tenant's admin (the same validation,
 * stock ledger and settlement rules as a clerk's work); each document is dated by moving the server clock
 * to its business day, which is safe only here: before the server listens, nothing else is running.
 * Runs once (parameter DEMO_MARKER); `DEMO_DATA=off` starts empty; tests never call it.
 */
export async function seedDemoCompany(app: FastifyInstance): Promise<void> {
  const { services } = app
  const db = services.databases.tenant(OPERATOR_TENANT_ID)
  if ((await parameter(db, DEMO_MARKER, '')) !== '') return
  // A tenant already in use (data from before demo data existed) stays as it is.
  if (await db.selectFrom('base_data_product').select('id').executeTakeFirst()) return
  const admin = await db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirst()
  if (!admin) return
  const token = await services.sessions.create(OPERATOR_TENANT_ID, String(admin.id), '127.0.0.1')
  const call = async <T = string>(method: 'POST' | 'PUT' | 'PATCH', url: string, body: unknown): Promise<T> => {
    const r = await app.inject({ method, url: `/cloud-api${url}`, headers: { 'x-auth-token': token, 'content-type': 'application/json' }, payload: JSON.stringify(body) })
    const answer = r.json() as { code: number; msg: string; data: T }
    if (answer.code !== 200) throw new Error(`${method} ${url}: ${answer.msg}`)
    return answer.data
  }
  const get = async <T>(url: string, id: string): Promise<T> => {
    const r = await app.inject({ method: 'GET', url: `/cloud-api${url}`, headers: { 'x-auth-token': token }, query: { id } })
    return (r.json() as { data: T }).data
  }

  const started = Date.now()
  // Marked first: a start that fails half-way is not repeated over what it made, and of several processes
  // starting together on one database (npm run cluster) only the one whose marker is written (the key is
  // unique) seeds.
  try {
    await call('POST', '/system/parameter', { pKey: DEMO_MARKER, pValue: 'seeded', description: '演示数据已生成（只生成一次；DEMO_DATA=off 启动时不生成）' })
  } catch {
    await services.sessions.end(token)
    return
  }
  const seed = JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'seed', 'demo-company.json'), 'utf8')) as DemoSeed
  try {
    // Master data, dated before the first document.
    setClock(dayjs().subtract(seed.days + 1, 'day').hour(9).toDate())
    const categories = new Map<string, string>()
    const addCategories = async (nodes: CategorySeed[], parentId?: string) => {
      for (const c of nodes) {
        categories.set(c.code, await call('POST', '/basedata/product/category', { code: c.code, name: c.name, parentId }))
        await addCategories(c.children ?? [], categories.get(c.code))
      }
    }
    await addCategories(seed.categories)
    const byCode = async (url: string, rows: object[]) => {
      const ids = new Map<string, string>()
      for (const row of rows) ids.set((row as Coded).code, await call('POST', url, row))
      return ids
    }
    const brands = await byCode('/basedata/product/brand', seed.brands)
    const stores = [...(await byCode('/basedata/storecenter', seed.storeCenters)).values()]
    const suppliers = await byCode('/basedata/supplier', seed.suppliers.map((s) => ({ ...s, settleType: 1, manageType: 1 })))
    const customers = [...(await byCode('/basedata/customer', seed.customers.map((c) => ({ ...c, settleType: 1 })))).values()]
    const members = [...(await byCode('/basedata/member', seed.members)).values()]
    const products: Product[] = []
    for (const [code, name, category, brand, supplier, unit, spec, purchasePrice, salePrice, retailPrice] of seed.products) {
      const id = await call('POST', '/basedata/product', {
        code,
        name,
        skuCode: `69${code.slice(2).padStart(11, '0')}`,
        categoryId: categories.get(category),
        brandId: brands.get(brand),
        productType: 1,
        taxRate: seed.taxRate,
        saleTaxRate: seed.taxRate,
        unit,
        spec,
        purchasePrice,
        salePrice,
        retailPrice,
      })
      products.push({ id, supplier: suppliers.get(supplier)!, purchasePrice, salePrice, retailPrice })
    }
    const payType = await db.selectFrom('base_data_pay_type').select('id').orderBy('code').executeTakeFirstOrThrow()

    // Documents, day by day: goods come in before they go out; stock is tracked here so nothing is refused.
    const rnd = random(20261126)
    const stock = new Map<string, number>()
    const key = (storeId: string, productId: string) => `${storeId}|${productId}`
    const take = (storeId: string, productId: string, wanted: number) => {
      const have = stock.get(key(storeId, productId)) ?? 0
      const n = Math.min(have, wanted)
      stock.set(key(storeId, productId), have - n)
      return n
    }
    const bySupplier = new Map<string, Product[]>()
    for (const p of products) bySupplier.set(p.supplier, [...(bySupplier.get(p.supplier) ?? []), p])
    const counts = { purchase: 0, sale: 0, retail: 0 }

    for (let day = seed.days; day >= 0; day--) {
      const date = dayjs().subtract(day, 'day')
      const at = (hour: number) => {
        const time = date.hour(hour).minute(rnd.int(0, 59)).second(rnd.int(0, 59))
        // Today's work cannot have happened later than now.
        setClock((time.isAfter(dayjs()) ? dayjs().subtract(rnd.int(1, 30), 'minute') : time).toDate())
      }
      // Purchases: a restock of each supplier's range every week or so, into the central or a branch store.
      if (day === seed.days || rnd.chance(0.18)) {
        for (const [supplierId, range] of bySupplier) {
          if (day !== seed.days && !rnd.chance(0.5)) continue
          at(rnd.int(8, 10))
          const scId = day === seed.days ? stores[counts.purchase % stores.length] : rnd.pick(stores)
          const lines = range.filter(() => day === seed.days || rnd.chance(0.5)).map((p) => ({ p, orderNum: rnd.int(20, 80) }))
          if (!lines.length) continue
          const total = lines.reduce((sum, l) => sum.plus(new Decimal(l.p.purchasePrice).times(l.orderNum)), new Decimal(0))
          const orderId = await call('POST', '/purchase/order/approve/pass/direct', {
            scId,
            supplierId,
            expectArriveDate: date.add(2, 'day').format('YYYY-MM-DD'),
            products: lines.map((l) => ({ productId: l.p.id, orderNum: l.orderNum, taxPrice: l.p.purchasePrice })),
            payTypes: [{ id: payType.id, payAmount: total.toFixed(2) }],
          })
          const order = await get<{ details: { id: string; productId: string; orderNum: number }[] }>('/purchase/order', orderId)
          at(rnd.int(13, 16))
          await call('POST', '/purchase/receive/sheet/approve/pass/direct', {
            purchaseOrderId: orderId,
            receiveDate: date.format('YYYY-MM-DD'),
            products: order.details.map((d) => ({ productId: d.productId, orderNum: d.orderNum, purchaseOrderDetailId: d.id })),
          })
          for (const d of order.details) stock.set(key(scId, d.productId), (stock.get(key(scId, d.productId)) ?? 0) + Number(d.orderNum))
          counts.purchase++
        }
      }
      if (day === seed.days) continue
      // Wholesale: one or two sale out sheets a day from the two warehouses.
      for (let i = rnd.int(1, 2); i > 0; i--) {
        at(rnd.int(9, 17))
        const scId = rnd.pick(stores.slice(0, 2))
        const lines = [...new Set(Array.from({ length: rnd.int(1, 4) }, () => rnd.pick(products)))]
          .map((p) => ({ p, orderNum: take(scId, p.id, rnd.int(2, 12)) }))
          .filter((l) => l.orderNum > 0)
        if (!lines.length) continue
        await call('POST', '/sale/out/sheet/approve/pass/direct', {
          scId,
          customerId: rnd.pick(customers),
          products: lines.map((l) => ({ productId: l.p.id, orderNum: l.orderNum, taxPrice: l.p.salePrice })),
        })
        counts.sale++
      }
      // The shop: a few retail sales, some to members.
      const shop = stores[2]
      for (let i = rnd.int(1, 3); i > 0; i--) {
        at(rnd.int(10, 21))
        const lines = [...new Set(Array.from({ length: rnd.int(1, 3) }, () => rnd.pick(products)))]
          .map((p) => ({ p, orderNum: take(shop, p.id, rnd.int(1, 3)) }))
          .filter((l) => l.orderNum > 0)
        if (!lines.length) continue
        await call('POST', '/retail/out/sheet/approve/pass/direct', {
          scId: shop,
          memberId: rnd.chance(0.6) ? rnd.pick(members) : undefined,
          products: lines.map((l) => ({ productId: l.p.id, orderNum: l.orderNum, taxPrice: l.p.retailPrice })),
        })
        counts.retail++
      }
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    app.log.info(
      `demo company seeded in ${seconds} s: ${products.length} products, ${counts.purchase} purchase orders with receipts, ` +
        `${counts.sale} sale out and ${counts.retail} retail out sheets (DEMO_DATA=off starts empty)`,
    )
  } catch (error) {
    // The app stays usable; what was made is kept (each call is its own transaction) and it is not retried.
    app.log.error({ err: error }, 'demo data stopped')
  } finally {
    setClock()
    await services.sessions.end(token)
  }
}
