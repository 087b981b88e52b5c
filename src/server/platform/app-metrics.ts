import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { FastifyInstance } from 'fastify'
import type { Databases } from '../db/databases.js'

/** What the metrics read at scrape time from parts built after them. */
export interface MetricSources {
  databases: Databases
  /** Sockets of the message bus held by this process. */
  sockets(): number
}

/** Process metrics (CPU, memory, event loop, GC) are the process's, not an app's: one registry per process. */
let processRegistry: Registry | undefined
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry()
    collectDefaultMetrics({ register: processRegistry })
  }
  return processRegistry
}

/**
 * The app's Prometheus metrics (`GET /metrics`, prom-client). Requests are labelled by their route
 * pattern (`/cloud-api/sale/out/sheet/:id`), never the raw URL, so the number of series stays bounded
 * whatever the clients send. Each app has its own registry: tests build several apps in one process, and
 * each process of `npm run cluster` answers for itself.
 */
export class AppMetrics {
  private readonly registry = new Registry()
  private readonly requests = new Counter({
    name: 'erp_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  })
  private readonly requestSeconds = new Histogram({
    name: 'erp_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  })
  private readonly requestsInFlight = new Gauge({
    name: 'erp_http_requests_in_flight',
    help: 'HTTP requests being answered now',
    registers: [this.registry],
  })
  private readonly jobRuns = new Counter({
    name: 'erp_job_runs_total',
    help: 'Runs of scheduled jobs (定时器) ended, by trigger (SCHEDULE, MISFIRE, MANUAL) and status (SUCCESS, ERROR, INTERRUPTED)',
    labelNames: ['trigger', 'status'] as const,
    registers: [this.registry],
  })
  private readonly jobRunSeconds = new Histogram({
    name: 'erp_job_run_duration_seconds',
    help: 'Time a job run took',
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    registers: [this.registry],
  })
  private readonly jobsRunning = new Gauge({
    name: 'erp_job_runs_in_progress',
    help: 'Job runs in progress in this process',
    registers: [this.registry],
  })
  private readonly importTasks = new Counter({
    name: 'erp_import_tasks_total',
    help: 'Import tasks ended, by result (success, error: rows refused or the task failed)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  })
  private readonly importsRunning = new Gauge({
    name: 'erp_import_tasks_in_progress',
    help: 'Import tasks running in this process',
    registers: [this.registry],
  })

  private readonly webhookAttempts = new Counter({
    name: 'erp_webhook_attempts_total',
    help: 'Webhook delivery attempts ended, by outcome (delivered; retry: will be sent again; failed: retried for the bounded time; refused: target refused or subscription gone)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  })
  private readonly webhookSeconds = new Histogram({
    name: 'erp_webhook_attempt_duration_seconds',
    help: 'Time a webhook delivery attempt took (connect, send, answer)',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  })

  constructor(sources: MetricSources) {
    const { databases } = sources
    new Gauge({
      name: 'erp_realtime_sockets',
      help: 'Message bus sockets connected to this process',
      registers: [this.registry],
      collect() {
        this.set(sources.sockets())
      },
    })
    if (databases.kind === 'postgres') {
      new Gauge({
        name: 'erp_db_pool_connections',
        help: 'PostgreSQL pool of this process: connections open (total), idle, and queries waiting for one (waiting)',
        labelNames: ['state'] as const,
        registers: [this.registry],
        collect() {
          const pool = databases.poolStats()
          if (!pool) return
          this.set({ state: 'total' }, pool.total)
          this.set({ state: 'idle' }, pool.idle)
          this.set({ state: 'waiting' }, pool.waiting)
        },
      })
    } else {
      // SQLite has no pool: one connection per database file, writers take turns on each file.
      new Gauge({
        name: 'erp_db_sqlite_files_open',
        help: 'SQLite database files open in this process (the platform and each tenant used since start)',
        registers: [this.registry],
        collect() {
          this.set(databases.sqliteFiles().length)
        },
      })
      new Gauge({
        name: 'erp_db_sqlite_size_bytes',
        help: 'Size of the open SQLite database files with their write-ahead logs',
        registers: [this.registry],
        collect() {
          this.set(databases.sqliteFiles().reduce((sum, file) => sum + file.bytes(), 0))
        },
      })
    }
  }

  /** Counts and times every request by its route pattern. */
  install(app: FastifyInstance): void {
    // An earlier onRequest hook may answer before this one runs (installStopGuard): only what was counted in is counted out.
    const inFlight = new WeakSet<object>()
    app.addHook('onRequest', async (req) => {
      inFlight.add(req)
      this.requestsInFlight.inc()
    })
    app.addHook('onResponse', async (req, reply) => {
      if (inFlight.delete(req)) this.requestsInFlight.dec()
      // No route matched (404, a scanner's guesses): one label for all of them.
      const route = req.routeOptions.url ?? 'unmatched'
      this.requests.inc({ method: req.method, route, status: String(reply.statusCode) })
      this.requestSeconds.observe({ method: req.method, route }, reply.elapsedTime / 1000)
    })
  }

  /** A job run has started; call the answer when it ends. */
  jobRunStarted(trigger: string): (status: string) => void {
    const started = performance.now()
    this.jobsRunning.inc()
    return (status) => {
      this.jobsRunning.dec()
      this.jobRuns.inc({ trigger, status })
      this.jobRunSeconds.observe((performance.now() - started) / 1000)
    }
  }

  /** An import task has started; call the answer with whether it ended with errors. */
  importStarted(): (failed: boolean) => void {
    this.importsRunning.inc()
    return (failed) => {
      this.importsRunning.dec()
      this.importTasks.inc({ result: failed ? 'error' : 'success' })
    }
  }

  /** A webhook delivery attempt has ended. */
  webhookAttempted(outcome: 'delivered' | 'retry' | 'failed' | 'refused', seconds: number): void {
    this.webhookAttempts.inc({ outcome })
    this.webhookSeconds.observe(seconds)
  }

  /** The Prometheus text of this app and of its process. */
  async text(): Promise<string> {
    return (await processMetrics().metrics()) + (await this.registry.metrics())
  }

  readonly contentType = this.registry.contentType
}
