import path from 'node:path'
import { sql } from 'kysely'
import type { Db, DbKind } from './dialect.js'
import { type DatabaseTarget, openPostgres, openSqlite } from './connections.js'

/**
 * Tenant isolation by construction: the platform database holds tenants, modules and sessions; every
 * tenant has its own database (an SQLite file beside the platform file, or a PostgreSQL schema). A
 * request only ever receives the handle of its own tenant.
 */
export class Databases {
  readonly kind: DbKind
  readonly platform: Db
  private readonly tenants = new Map<string, Db>()
  private readonly root?: Db

  constructor(private readonly target: DatabaseTarget) {
    this.kind = target.kind
    if (target.kind === 'sqlite') {
      this.platform = openSqlite(target.location)
    } else {
      this.root = openPostgres(target.location)
      this.platform = this.root.withSchema('platform')
    }
  }

  static tenantSchema(tenantId: string): string {
    if (!/^[A-Za-z0-9_]{1,40}$/.test(tenantId)) throw new Error(`invalid tenant id ${tenantId}`)
    return `tenant_${tenantId.toLowerCase()}`
  }

  /** Creates the PostgreSQL schema of the platform or a tenant; SQLite files appear on first open. */
  async ensureSchema(name: 'platform' | { tenantId: string }): Promise<void> {
    if (!this.root) return
    const schema = name === 'platform' ? 'platform' : Databases.tenantSchema(name.tenantId)
    await sql`create schema if not exists ${sql.id(schema)}`.execute(this.root)
  }

  tenant(tenantId: string): Db {
    let db = this.tenants.get(tenantId)
    if (!db) {
      const schema = Databases.tenantSchema(tenantId)
      db = this.root
        ? this.root.withSchema(schema)
        : openSqlite(path.join(path.dirname(this.target.location), `${path.basename(this.target.location, '.db')}.${schema}.db`))
      this.tenants.set(tenantId, db)
    }
    return db
  }

  /** The tenant whose handle (from `tenant`) `db` is; undefined for the platform's or any other. */
  tenantOf(db: Db): string | undefined {
    for (const [tenantId, handle] of this.tenants) if (handle === db) return tenantId
    return undefined
  }

  /** PostgreSQL schema of a handle, for the migrator's bookkeeping table. */
  schemaOf(tenantId: string | 'platform'): string | undefined {
    if (!this.root) return undefined
    return tenantId === 'platform' ? 'platform' : Databases.tenantSchema(tenantId)
  }

  async close(): Promise<void> {
    if (this.root) {
      await this.root.destroy()
    } else {
      await this.platform.destroy()
      for (const db of this.tenants.values()) await db.destroy()
    }
    this.tenants.clear()
  }
}
