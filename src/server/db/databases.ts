import fs from 'node:fs'
import path from 'node:path'
import type pg from 'pg'
import { sql } from 'kysely'
import type { Db, DbKind } from './dialect.js'
import { type DatabaseTarget, openPostgres, openSqlite, postgresPool } from './connections.js'

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
  private readonly pool?: pg.Pool
  /** SQLite: the files opened so far (the platform's first). */
  private readonly files: string[] = []

  constructor(private readonly target: DatabaseTarget) {
    this.kind = target.kind
    if (target.kind === 'sqlite') {
      this.platform = openSqlite(target.location)
      this.files.push(target.location)
    } else {
      this.pool = postgresPool(target.location)
      this.root = openPostgres(this.pool)
      this.platform = openPostgres(this.pool, 'platform')
    }
  }

  static tenantSchema(tenantId: string): string {
    if (!/^[A-Za-z0-9_]{1,40}$/.test(tenantId)) throw new Error(`invalid tenant id ${tenantId}`)
    return `tenant_${tenantId.toLowerCase()}`
  }

  /** SQLite: the file of a tenant's database, beside the platform file. */
  static sqliteTenantFile(platformFile: string, tenantId: string): string {
    return path.join(path.dirname(platformFile), `${path.basename(platformFile, '.db')}.${Databases.tenantSchema(tenantId)}.db`)
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
      if (this.pool) db = openPostgres(this.pool, schema)
      else {
        const file = Databases.sqliteTenantFile(this.target.location, tenantId)
        db = openSqlite(file)
        this.files.push(file)
      }
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

  /** PostgreSQL: the pool's connections (open, idle) and the queries waiting for one. */
  poolStats(): { total: number; idle: number; waiting: number } | undefined {
    return this.pool && { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount }
  }

  /** SQLite: the open database files, each with its size on disk (with its write-ahead log). */
  sqliteFiles(): { file: string; bytes(): number }[] {
    const size = (file: string) => {
      try {
        return fs.statSync(file).size
      } catch {
        return 0
      }
    }
    return this.files.map((file) => ({ file, bytes: () => size(file) + size(`${file}-wal`) }))
  }

  async close(): Promise<void> {
    if (this.root) {
      await this.root.destroy()
    } else {
      await this.platform.destroy()
      for (const db of this.tenants.values()) await db.destroy()
    }
    this.tenants.clear()
    this.files.length = 0
  }
}
