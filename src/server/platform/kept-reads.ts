import { Databases } from '../db/databases.js'
import type { HeardChannel } from '../db/pg-listener.js'

/**
 * Reads a process keeps per tenant while it hears a channel whose triggers name the tenant's schema on every
 * change that commits (PostgreSQL): each kept for at most `ttlMs`, dropped when the channel names its tenant,
 * all dropped when the channel is lost, and a read in flight while any notification arrived is not kept (it may
 * have seen the rows before the change). Without the channel (SQLite, or the connection down) a read is kept only
 * `unheardTtlMs` (none by default): a change made by another process would go unseen, and this process's own
 * writes must say so (`clear`).
 */
export class KeptReads {
  private readonly entries = new Map<string, { at: number; value: unknown }>()

  constructor(
    private readonly heard: HeardChannel,
    private readonly ttlMs = 60_000,
    private readonly unheardTtlMs = 0,
    private readonly max = 10_000,
  ) {}

  async read<T>(tenantId: string, what: string, load: () => Promise<T>): Promise<T> {
    const ttl = this.heard.listening ? this.ttlMs : this.unheardTtlMs
    if (!ttl) return load()
    const key = `${tenantId}:${what}`
    const hit = this.entries.get(key)
    if (hit && Date.now() - hit.at < ttl) return hit.value as T
    const mark = this.heard.epoch
    const value = await load()
    if (mark === this.heard.epoch) {
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string)
      this.entries.set(key, { at: Date.now(), value })
    }
    return value
  }

  /** What the channel's payload (a tenant's schema) names. */
  forget(schema: string): void {
    for (const key of this.entries.keys()) if (Databases.tenantSchema(key.slice(0, key.indexOf(':'))) === schema) this.entries.delete(key)
  }

  clear(): void {
    this.entries.clear()
  }
}
