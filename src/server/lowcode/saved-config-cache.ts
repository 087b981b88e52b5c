import dayjs from 'dayjs'
import type { Db } from '../db/dialect.js'
import type { Services } from '../engine/services.js'
import type { RequestContext } from '../platform/request-context.js'
import { clock } from '../platform/clock.js'

/**
 * What the low-code layer derives from its saved configuration (a custom list with its resolved data
 * object, the lists, forms, pages and selectors a user's menus reach), kept per tenant for as long as the
 * configuration stays as saved. The saved version is read from the database on every request, one
 * statement: the newest `update_time` and the row count of every low-code table (`gen_…`) and of the
 * menus. Any save or delete, by this process or another one behind the same database, changes it, and
 * the tenant's derived values are built again.
 *
 * Timestamps have whole seconds: a second save within the second of the first would leave the version
 * as it was. So nothing is kept while the newest save is younger than YOUNG_MS: by the time something
 * is kept, any later save stamps a later second. (Holds while the processes' clocks agree within it.)
 */
const YOUNG_MS = 5000

interface Version {
  key: string
  young: boolean
}

interface Entry {
  version: string
  values: Map<string, unknown>
}

const stamp = (v: unknown): string => (v instanceof Date ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : v === null || v === undefined ? '' : String(v))

export class SavedConfigCache {
  private readonly tenants = new Map<string, Entry>()
  /** The version read once per request (a run-time call checks access, then loads its list). */
  private readonly perRequest = new WeakMap<RequestContext, Promise<Version>>()
  private tableNames?: string[]

  constructor(private readonly services: Services) {}

  private tables(): string[] {
    this.tableNames ??= [
      ...this.services.registry
        .all()
        .filter((e) => e.scope === 'tenant' && e.table.startsWith('gen_'))
        .map((e) => e.table),
      this.services.registry.get('menu').table,
    ].sort()
    return this.tableNames
  }

  private async read(db: Db): Promise<Version> {
    const tables = this.tables()
    const row = await db
      .selectNoFrom((eb) =>
        tables.flatMap((table, i) => [
          eb.selectFrom(table).select((x) => x.fn.max('update_time').as('m')).as(`m${i}`),
          eb.selectFrom(table).select((x) => x.fn.countAll().as('n')).as(`n${i}`),
        ]),
      )
      .executeTakeFirstOrThrow()
    const r = row as Record<string, unknown>
    const stamps = tables.map((_, i) => stamp(r[`m${i}`]))
    const newest = stamps.reduce((a, b) => (b > a ? b : a), '')
    const young = newest !== '' && dayjs(newest).valueOf() > clock().valueOf() - YOUNG_MS
    return { key: tables.map((_, i) => `${stamps[i]}#${String(r[`n${i}`])}`).join('|'), young }
  }

  private version(ctx: RequestContext, db: Db): Promise<Version> {
    if (db !== ctx.db) return this.read(db)
    let v = this.perRequest.get(ctx)
    if (!v) {
      v = this.read(db)
      this.perRequest.set(ctx, v)
    }
    return v
  }

  /**
   * `build()` as of the saved configuration: the value kept for `key` while the version stays and
   * `holds` (a check of what the version does not cover, e.g. the live tables) accepts it.
   */
  async value<T>(ctx: RequestContext, db: Db, key: string, build: () => Promise<T>, holds: (value: T) => Promise<boolean> | boolean = () => true): Promise<T> {
    const { key: version, young } = await this.version(ctx, db)
    let entry = this.tenants.get(ctx.tenantId)
    if (entry?.version !== version) {
      entry = { version, values: new Map() }
      if (young) this.tenants.delete(ctx.tenantId)
      else this.tenants.set(ctx.tenantId, entry)
    }
    if (entry.values.has(key)) {
      const kept = entry.values.get(key) as T
      if (await holds(kept)) return kept
    }
    const built = await build()
    if (!young) entry.values.set(key, built)
    return built
  }
}

const caches = new WeakMap<Services, SavedConfigCache>()

/** The app's cache (one per app, so test apps on other databases share nothing). */
export function savedConfigCache(services: Services): SavedConfigCache {
  let cache = caches.get(services)
  if (!cache) {
    cache = new SavedConfigCache(services)
    caches.set(services, cache)
  }
  return cache
}
