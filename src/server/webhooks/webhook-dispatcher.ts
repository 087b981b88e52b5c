import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import os from 'node:os'
import type { FastifyBaseLogger } from 'fastify'
import { sql, type ExpressionBuilder } from 'kysely'
import type { Db } from '../db/dialect.js'
import { isPostgres } from '../db/exact-decimal.js'
import type { Services } from '../engine/services.js'
import { WEBHOOK_DELIVERY_STATUS as STATUS } from '../../shared/generated/enum-codes.js'
import { auditColumns } from '../platform/audit-columns.js'
import { now } from '../platform/clock.js'
import { inTransaction } from '../platform/db-tx.js'
import { BizError } from '../platform/errors.js'
import { newId } from '../platform/ids.js'
import { allowListOf, checkTarget, type CheckedTarget, type TargetPolicy } from './webhook-target.js'
import { ATTEMPT_TABLE, DELIVERY_TABLE, onDeliveriesWritten, SUBSCRIPTION_TABLE, WEBHOOK_ACTOR } from './webhook-outbox.js'
import { SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER } from './webhook-signature.js'

/** Deliveries one process sends at the same time per tenant (a subscription's own go one after another). */
const LANES = 4
/** A claim outlives the attempt's timeout by this much before another process may take the row again. */
const LEASE_MARGIN_MS = 30_000
/** The longest wait between two attempts. */
const MAX_RETRY_MS = 3600_000
/** What is kept of a receiver's answer (and read of it at most). */
const ANSWER_CHARS = 500
const READ_BYTES = 16 * 1024

export const SUBSCRIPTION_GONE = '订阅已删除'
export const SUBSCRIPTION_OFF = '订阅已停用'

/** How an attempt ended, for the row, its attempt and /metrics. */
export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'refused'

interface Claimed {
  id: string
  subscriptionId: string
  event: string
  eventId: string
  url: string
  payload: string
  attempts: number
  giveUpAt: number | null
  leaseUntil: number
}

interface Answer {
  httpStatus: number | null
  text: string
}

/**
 * Sends the outbox (webhook_delivery) of every tenant after the commits that wrote it. Any number of
 * processes may run one on the same PostgreSQL: a row is claimed by one guarded UPDATE whose subquery
 * takes the oldest due row `FOR UPDATE SKIP LOCKED`, so two processes never claim the same row, and the
 * claim holds a lease, so the row of a process that died mid-attempt is sent again once the lease passes
 * (at least once, never lost). A subscription's rows go in id order: a row is due only when no older
 * row of its subscription still waits or is being sent (a retried row holds back the ones after it).
 * An answer 2xx delivers; anything else is retried after base·2ⁿ (at most an hour) until
 * WEBHOOK_RETRY_FOR_MS after the first attempt, then the row is failed. A target refused at delivery
 * (its name now resolves to a private address) fails at once. Every attempt is a row of webhook_attempt.
 */
export class WebhookDispatcher {
  private readonly policy: TargetPolicy
  private readonly instance = `${os.hostname()}:${process.pid}`.slice(0, 100)
  private timer: NodeJS.Timeout | undefined
  private stopWaking: (() => void) | undefined
  private pass: Promise<void> | undefined
  private again = false
  private stopped = true

  constructor(
    private readonly services: Services,
    private readonly log: FastifyBaseLogger,
  ) {
    this.policy = { allowPrivate: services.config.webhookAllowPrivate }
    // A wrong WEBHOOK_ALLOW_PRIVATE entry stops the start instead of failing every delivery.
    allowListOf(this.policy)
  }

  start(): void {
    this.stopped = false
    this.timer = setInterval(() => this.wake(), this.services.config.webhookPollMs)
    this.timer.unref()
    this.stopWaking = onDeliveriesWritten(() => this.wake())
    this.wake()
  }

  /** Claims no more rows and waits for the attempts in flight (each bounded by WEBHOOK_TIMEOUT_MS). */
  async stop(): Promise<void> {
    this.stopped = true
    clearInterval(this.timer)
    this.stopWaking?.()
    await this.pass
  }

  /** Starts a pass over every tenant, or asks the running one to be followed by another. */
  wake(): void {
    if (this.stopped) return
    if (this.pass) {
      this.again = true
      return
    }
    this.again = false
    this.pass = this.sendDue()
      .catch((error: unknown) => this.log.error({ err: error }, 'webhook pass failed'))
      .finally(() => {
        this.pass = undefined
        if (this.again) this.wake()
      })
  }

  private async sendDue(): Promise<void> {
    for (const tenantId of await this.services.tenantIds()) {
      if (this.stopped) return
      const db = this.services.databases.tenant(tenantId)
      await Promise.all(
        Array.from({ length: LANES }, async () => {
          while (!this.stopped) {
            const row = await this.claim(db)
            if (!row) return
            await this.attempt(db, row)
          }
        }),
      )
    }
  }

  /** The one guarded statement that makes the oldest due row of this tenant this process's, or nothing. */
  private async claim(db: Db): Promise<Claimed | undefined> {
    const at = Date.now()
    const leaseUntil = at + this.services.config.webhookTimeoutMs + LEASE_MARGIN_MS
    const waiting = [STATUS.PENDING, STATUS.SENDING]
    let oldest = db
      .selectFrom(`${DELIVERY_TABLE} as d`)
      .select('d.id')
      .where((eb) => due(eb, at, 'd.'))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom(`${DELIVERY_TABLE} as e`)
              .select('e.id')
              .whereRef('e.subscription_id', '=', 'd.subscription_id')
              .whereRef('e.id', '<', 'd.id')
              .where('e.status', 'in', waiting),
          ),
        ),
      )
      .orderBy('d.id')
      .limit(1)
    if (isPostgres(db)) oldest = oldest.forUpdate().skipLocked()
    const row = await db
      .updateTable(DELIVERY_TABLE)
      .set({ status: STATUS.SENDING, lease_until: leaseUntil, attempts: sql`attempts + 1` })
      .where('id', '=', oldest)
      // Again on the row itself: on SQLite (no row locks) the statement is the guard.
      .where((eb) => due(eb, at))
      .returning(['id', 'subscription_id', 'event', 'event_id', 'url', 'payload', 'attempts', 'give_up_at'])
      .executeTakeFirst()
    if (!row) return undefined
    return {
      id: String(row.id),
      subscriptionId: String(row.subscription_id),
      event: String(row.event),
      eventId: String(row.event_id),
      url: String(row.url),
      payload: String(row.payload ?? ''),
      attempts: Number(row.attempts),
      giveUpAt: row.give_up_at === null || row.give_up_at === undefined ? null : Number(row.give_up_at),
      leaseUntil,
    }
  }

  private async attempt(db: Db, row: Claimed): Promise<void> {
    const started = Date.now()
    const startTime = now()
    let answer: Answer
    let outcome: AttemptOutcome
    try {
      const secret = await this.secretOf(db, row.subscriptionId)
      const target = await checkTarget(row.url, this.policy)
      answer = await send(target, row, secret, this.services.config.webhookTimeoutMs)
      outcome = answer.httpStatus !== null && answer.httpStatus >= 200 && answer.httpStatus < 300 ? 'delivered' : 'retry'
    } catch (error) {
      // A refused target or a subscription gone: sending again would not help.
      if (!(error instanceof BizError)) throw error
      answer = { httpStatus: null, text: error.message }
      outcome = 'refused'
    }
    const finished = Date.now()
    const giveUpAt = row.giveUpAt ?? started + this.services.config.webhookRetryForMs
    const delay = Math.min(this.services.config.webhookRetryBaseMs * 2 ** Math.max(0, row.attempts - 1), MAX_RETRY_MS)
    if (outcome === 'retry' && finished + delay > giveUpAt) outcome = 'failed'
    const status = outcome === 'delivered' ? STATUS.DELIVERED : outcome === 'retry' ? STATUS.PENDING : STATUS.FAILED
    const text = answer.text.slice(0, ANSWER_CHARS)
    const ended = await inTransaction(db, async (trx) => {
      const done = await trx
        .updateTable(DELIVERY_TABLE)
        .set({
          status,
          next_attempt_at: outcome === 'retry' ? finished + delay : null,
          give_up_at: giveUpAt,
          last_status: answer.httpStatus,
          last_answer: text,
          last_duration_ms: finished - started,
          delivered_time: outcome === 'delivered' ? now() : null,
          update_time: now(),
        })
        .where('id', '=', row.id)
        .where('status', '=', STATUS.SENDING)
        .where('lease_until', '=', row.leaseUntil)
        .executeTakeFirst()
      // The lease passed meanwhile and another process has the row: its attempt is the one that counts.
      if (!Number(done.numUpdatedRows)) return false
      await trx
        .insertInto(ATTEMPT_TABLE)
        .values({
          id: newId(),
          delivery_id: row.id,
          attempt_no: row.attempts,
          start_time: startTime,
          http_status: answer.httpStatus,
          answer: text,
          duration_ms: finished - started,
          instance: this.instance,
          ...auditColumns(WEBHOOK_ACTOR),
        })
        .execute()
      return true
    })
    if (!ended) this.log.warn({ delivery: row.id }, 'webhook delivery outlived its lease; its attempt is not recorded')
    this.services.metrics.webhookAttempted(outcome, (finished - started) / 1000)
  }

  private async secretOf(db: Db, subscriptionId: string): Promise<string> {
    const subscription = await db.selectFrom(SUBSCRIPTION_TABLE).select(['secret', 'available']).where('id', '=', subscriptionId).executeTakeFirst()
    if (!subscription) throw new BizError(410, SUBSCRIPTION_GONE)
    if (!(subscription.available === true || Number(subscription.available) === 1)) throw new BizError(410, SUBSCRIPTION_OFF)
    return String(subscription.secret ?? '')
  }
}

/** A row that may be claimed at `at`: waiting and due, or being sent by a process whose lease has passed. */
const due = (eb: ExpressionBuilder<any, any>, at: number, alias = '') =>
  eb.or([
    eb.and([eb(`${alias}status`, '=', STATUS.PENDING), eb(`${alias}next_attempt_at`, '<=', at)]),
    eb.and([eb(`${alias}status`, '=', STATUS.SENDING), eb(`${alias}lease_until`, '<', at)]),
  ])

/**
 * One POST of the delivery to the checked target, connecting only to the addresses checked (the lookup
 * answers them instead of asking DNS again); redirects are not followed. Answers the status and the start of
 * the body, or no status and why the receiver could not be reached.
 */
function send(target: CheckedTarget, row: Claimed, secret: string, timeoutMs: number): Promise<Answer> {
  const timestamp = Math.floor(Date.now() / 1000)
  const body = row.payload
  const pinned: LookupFunction = (_hostname, options, callback) => {
    const all = target.addresses
    const wanted = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all
    const usable = wanted.length ? wanted : all
    if (options.all) (callback as unknown as (e: null, a: typeof all) => void)(null, usable)
    else callback(null, usable[0].address, usable[0].family)
  }
  const client = target.url.protocol === 'https:' ? https : http
  return new Promise<Answer>((resolve) => {
    const request = client.request(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        timeout: timeoutMs,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'XingyunERP-Webhook/1',
          'x-webhook-id': row.eventId,
          'x-webhook-event': row.event,
          'x-webhook-delivery': row.id,
          [TIMESTAMP_HEADER]: String(timestamp),
          [SIGNATURE_HEADER]: signWebhook(secret, timestamp, body),
        },
      },
      (response) => {
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          if (size < READ_BYTES) chunks.push(chunk)
          size += chunk.length
          if (size >= READ_BYTES) response.destroy()
        })
        const done = () => resolve({ httpStatus: response.statusCode ?? null, text: Buffer.concat(chunks).toString('utf8') })
        response.on('end', done)
        response.on('close', done)
        response.on('error', done)
      },
    )
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    request.on('error', (error) => resolve({ httpStatus: null, text: error.message }))
    request.on('close', () => clearTimeout(deadline))
    request.end(body)
  })
}
