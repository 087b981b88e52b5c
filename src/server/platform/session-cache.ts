import { createHash } from 'node:crypto'
import { HeardChannel } from '../db/pg-listener.js'

/** A signed-in session: the token and whose it is (sessions.ts reads and writes them). */
export interface SessionRow {
  token: string
  tenantId: string
  userId: string
}

/** The channel the sys_session delete trigger notifies (migration 0005), with the token's SHA-256 as payload. */
export const SESSION_ENDED_CHANNEL = 'session_ended'

interface Entry {
  row: SessionRow
  /** When this process last saw (or wrote) the session's activity, and its absolute end (epoch ms). */
  activeAt: number
  expiresAt: number
}

const KEPT = 10_000

export const tokenDigest = (token: string): string => createHash('sha256').update(token).digest('hex')

/**
 * PostgreSQL: the sessions this process read in the last minute, so an authenticated call costs one round
 * trip (its own statement) instead of two (issue 33: the session read was half of the fixed cost).
 *
 * Revocation stays immediate across processes: every delete of a sys_session row (logout, signed out
 * everywhere, expiry, a delete by hand) notifies its digest from a trigger when it commits, and each process
 * drops the entry on that notification. A read that was in flight when any notification arrived is not kept
 * (it may have seen the row before the delete committed), and nothing is kept or served while the listening
 * connection is down (notifications sent meanwhile are lost). An entry serves only while the session needs
 * no activity write (under a minute since this process saw activity), so idle expiry is still decided on
 * the row.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>()
  /** What the process's listening connection (db/pg-listener.ts) tells this cache on SESSION_ENDED_CHANNEL. */
  readonly heard = new HeardChannel(
    (digest) => this.entries.delete(digest),
    () => this.entries.clear(),
  )

  constructor(private readonly freshMs: number) {}

  /** The live session of `token` as this process last read it, if that read may still be trusted. */
  get(token: string, at: number): SessionRow | undefined {
    if (!this.heard.listening) return undefined
    const digest = tokenDigest(token)
    const entry = this.entries.get(digest)
    if (!entry) return undefined
    if (at >= entry.expiresAt || at - entry.activeAt >= this.freshMs) {
      this.entries.delete(digest)
      return undefined
    }
    return entry.row
  }

  /** Taken before reading the row; `keep` stores the read only if nothing was notified since. */
  mark(): number {
    return this.heard.epoch
  }

  keep(mark: number, row: SessionRow, activeAt: number, expiresAt: number): void {
    if (!this.heard.listening || mark !== this.heard.epoch) return
    if (this.entries.size >= KEPT) this.entries.delete(this.entries.keys().next().value as string)
    this.entries.set(tokenDigest(row.token), { row, activeAt, expiresAt })
  }

  /** Ended here: dropped at once, before the notification comes back. */
  drop(tokens: string[]): void {
    for (const token of tokens) this.entries.delete(tokenDigest(token))
  }
}
