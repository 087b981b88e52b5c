import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../db/dialect.js'
import { RUN_TABLE } from '../domain/jobs/qrtz-job.js'
import { QRTZ_RUN_STATUS } from '../../shared/generated/enum-codes.js'

/**
 * The lease of the job runs this process is carrying out. A run row is written with `lease_until` (epoch
 * milliseconds, real time: the test clock of setClock must not make live runs look dead) and renewed
 * every quarter of the lease while the run goes on; a run whose lease has passed belongs to a process
 * that died, and the scheduler leader ends it as interrupted (domain/jobs/qrtz-job.ts interruptDeadRuns).
 */
export class RunLeases {
  private readonly runs = new Map<string, Db>()
  private timer?: NodeJS.Timeout

  constructor(
    readonly leaseMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The lease a run row starts with (and every renewal gives). */
  until(): number {
    return Date.now() + this.leaseMs
  }

  hold(runId: string, db: Db): void {
    this.runs.set(runId, db)
    if (!this.timer) {
      this.timer = setInterval(() => void this.renew(), Math.max(100, Math.floor(this.leaseMs / 4)))
      this.timer.unref()
    }
  }

  release(runId: string): void {
    this.runs.delete(runId)
    if (!this.runs.size && this.timer) {
      clearInterval(this.timer)
      this.timer = undefined
    }
  }

  /** One statement per tenant database; only a run still RUNNING is renewed (an interrupted one stays so). */
  async renew(): Promise<void> {
    const byDb = new Map<Db, string[]>()
    for (const [id, db] of this.runs) byDb.set(db, [...(byDb.get(db) ?? []), id])
    const until = this.until()
    for (const [db, ids] of byDb) {
      try {
        await db.updateTable(RUN_TABLE).set({ lease_until: until }).where('id', 'in', ids).where('status', '=', QRTZ_RUN_STATUS.RUNNING).execute()
      } catch (error) {
        this.log.warn({ err: error }, 'scheduler: run lease not renewed')
      }
    }
  }
}
