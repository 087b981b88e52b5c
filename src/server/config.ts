import path from 'node:path'

/** Everything the server reads from the environment, in one place (README lists it). */
export interface AppConfig {
  port: number
  host: string
  /** `sqlite:<file>` (platform database file; tenant files sit beside it) or `postgres://…`. */
  databaseUrl: string
  dataDir: string
  /** Where backups are written and listed (npm run backup, the scheduled job, 备份管理). */
  backupDir: string
  loginCaptcha: boolean
  /** Calls an API token may make per minute (429 beyond). */
  apiTokenCallsPerMinute: number
  adminPassword: string
  /** Minutes of inactivity after which a session ends. */
  sessionIdleMinutes: number
  /** Hours after which a session ends whatever the activity. */
  sessionMaxHours: number
  smtpUrl?: string
  mailFrom: string
  /** Built client to serve, when present. */
  webRoot?: string
  logLevel: string
  /**
   * `pretty`: short readable lines through pino-pretty (start-up, warnings, errors, slow requests), for a
   * person at a terminal. `json`: one JSON object per line and per request, for a log shipper.
   */
  logFormat: 'pretty' | 'json'
  /** A request that takes longer than this is logged as a warning (one line) in either format. */
  logSlowMs: number
  /** Addresses (and CIDR ranges) that may read `GET /metrics` without a token; loopback by default. */
  metricsAllow: string[]
  /** A bearer token that opens `GET /metrics` from any address (unset: only the allowed addresses). */
  metricsToken?: string
  /** On SIGTERM: how long running requests, job runs and imports may take before the process stops anyway. */
  shutdownTimeoutMs: number
  /** The system name on the login page and in page titles (spec: a customer relationship management system). */
  systemTitle: string
  /** `npm start` seeds a demo company into a fresh database (src/server/demo); tests never do. */
  demoData: boolean
  /** Fire scheduled jobs from this process (off: the calls still work, nothing fires by itself). */
  scheduler: boolean
  /** PostgreSQL: how often a process that is not the scheduler leader tries to become it. */
  schedulerLeaderRetryMs: number
  /**
   * How long a job run's lease lasts: its process renews it every quarter of this; a run whose lease has
   * passed (its process was killed) is ended as interrupted by the scheduler leader.
   */
  schedulerRunLeaseMs: number
  /** How often each process renews its row in the bus's process table (presence of its sockets). */
  busHeartbeatMs: number
  /** A process not heard of for this long is dead: its sockets' presence is removed and the others are told. */
  busProcessExpireMs: number
  /**
   * Webhook targets that may be reached although they are loopback, private, link-local or otherwise
   * reserved addresses: addresses and CIDR ranges (`10.0.0.0/8`), or `*` for every address. Empty: none.
   */
  webhookAllowPrivate: string[]
  /** The first retry of a failed delivery waits this long; each next one twice as long (at most an hour). */
  webhookRetryBaseMs: number
  /** A delivery not answered with 2xx within this long after its event is marked failed. */
  webhookRetryForMs: number
  /** How long one delivery attempt may take (connect, send, answer). */
  webhookTimeoutMs: number
  /** How often each process looks for due deliveries (a commit in this process also wakes it at once). */
  webhookPollMs: number
  /** Key of an AMap (高德) web-service application for `GET /component/map/location`; unset: no geocoding. */
  mapKey?: string
  /** Where the AMap web service answers (a proxy or a test double may stand in). */
  mapBaseUrl: string
  /** AppKey and AppSecret of a DingTalk (钉钉) internal application for 钉钉同步; both unset: no sync. */
  dingTalkAppKey?: string
  dingTalkAppSecret?: string
  /** Where the DingTalk open API answers. */
  dingTalkBaseUrl: string
  /** How long a call to the map or DingTalk service may take. */
  outboundTimeoutMs: number
}

export const DEFAULT_SYSTEM_TITLE = '星云客户关系管理系统'

export const DEFAULT_ADMIN_PASSWORD = 'admin123456'

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = path.resolve(env.DATA_DIR ?? 'data')
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'app.db')}`,
    dataDir,
    backupDir: path.resolve(env.BACKUP_DIR ?? path.join(dataDir, 'backups')),
    loginCaptcha: (env.LOGIN_CAPTCHA ?? 'on') !== 'off',
    adminPassword: env.ADMIN_PASSWORD ?? DEFAULT_ADMIN_PASSWORD,
    sessionIdleMinutes: Number(env.SESSION_IDLE_MINUTES ?? 120),
    apiTokenCallsPerMinute: Number(env.API_TOKEN_CALLS_PER_MINUTE ?? 600),
    sessionMaxHours: Number(env.SESSION_MAX_HOURS ?? 24),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'no-reply@localhost',
    webRoot: path.resolve(env.WEB_ROOT ?? 'dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    logFormat: env.LOG_FORMAT === 'json' ? 'json' : 'pretty',
    logSlowMs: Number(env.LOG_SLOW_MS ?? 500),
    metricsAllow: (env.METRICS_ALLOW ?? '127.0.0.1,::1').split(',').map((a) => a.trim()).filter(Boolean),
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownTimeoutMs: Number(env.SHUTDOWN_TIMEOUT_MS ?? 20_000),
    systemTitle: env.SYSTEM_TITLE?.trim() || DEFAULT_SYSTEM_TITLE,
    demoData: (env.DEMO_DATA ?? 'on') !== 'off',
    scheduler: (env.SCHEDULER ?? 'on') !== 'off',
    schedulerLeaderRetryMs: Number(env.SCHEDULER_LEADER_RETRY_MS ?? 5000),
    schedulerRunLeaseMs: Number(env.SCHEDULER_RUN_LEASE_MS ?? 20_000),
    busHeartbeatMs: Number(env.BUS_HEARTBEAT_MS ?? 5000),
    busProcessExpireMs: Number(env.BUS_PROCESS_EXPIRE_MS ?? 15_000),
    webhookAllowPrivate: (env.WEBHOOK_ALLOW_PRIVATE ?? '').split(',').map((a) => a.trim()).filter(Boolean),
    webhookRetryBaseMs: Number(env.WEBHOOK_RETRY_BASE_MS ?? 10_000),
    webhookRetryForMs: Number(env.WEBHOOK_RETRY_FOR_MS ?? 24 * 3600_000),
    webhookTimeoutMs: Number(env.WEBHOOK_TIMEOUT_MS ?? 10_000),
    webhookPollMs: Number(env.WEBHOOK_POLL_MS ?? 2000),
    mapKey: env.MAP_KEY?.trim() || undefined,
    mapBaseUrl: (env.MAP_BASE_URL?.trim() || 'https://restapi.amap.com').replace(/\/+$/, ''),
    dingTalkAppKey: env.DINGTALK_APP_KEY?.trim() || undefined,
    dingTalkAppSecret: env.DINGTALK_APP_SECRET?.trim() || undefined,
    dingTalkBaseUrl: (env.DINGTALK_BASE_URL?.trim() || 'https://oapi.dingtalk.com').replace(/\/+$/, ''),
    outboundTimeoutMs: Number(env.OUTBOUND_TIMEOUT_MS ?? 10_000),
  }
}
