import fs from 'node:fs'
import { registerLocaleDirs } from './i18n/locale-dirs.js'
import path from 'node:path'
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify'
import formbody from '@fastify/formbody'
import multipart from '@fastify/multipart'
import fastifyStatic from '@fastify/static'
import type { AppConfig } from './config.js'
import { Databases } from './db/databases.js'
import { parseDatabaseUrl } from './db/connections.js'
import { migrateTenant, provisionPlatform } from './engine/provision.js'
import { EntityRegistry } from './engine/entity-registry.js'
import { EntityStore } from './engine/entity-store.js'
import { dropKeptOnWrite } from './engine/singletons.js'
import { HookRegistry } from './engine/entity-hooks.js'
import { RecordCodec } from './engine/record-codec.js'
import { registerMasterDataRoutes } from './engine/master-data-routes.js'
import { registerCodeRuleRoutes } from './engine/code-rule-routes.js'
import { registerSelectorRoutes } from './engine/selector-routes.js'
import { DocumentStore, type DocumentHooks } from './engine/document-store.js'
import { registerDocumentRoutes } from './engine/document-routes.js'
import { documentHookFactories } from './engine/document-hooks.js'
import { DOCUMENT_HOOKS, DOCUMENT_HOOKS_SOURCE } from './domain/documents/document-hooks.js'
import { lockDocumentStock, postDocumentStock } from './domain/stock/document-stock.js'
import { documentSettlement } from './domain/settle/effect.js'
import { purchaseModule } from './modules/purchase/index.js'
import { saleModule } from './modules/sale/index.js'
import { retailModule } from './modules/retail/index.js'
import { chartModule } from './modules/chart/index.js'
import { stockDocsModule } from './modules/stock-docs/index.js'
import { settleModule } from './modules/settle/index.js'
import { balanceReportRoutes } from './modules/settle/balance-report.js'
import { crmDealsModule } from './modules/crm/deals.js'
import { BizError, invalid } from './platform/errors.js'
import { databaseRefusal } from './platform/database-refusals.js'
import { API_PREFIX } from './platform/routes.js'
import { ACTIVITY_WRITE_MS, SessionStore } from './platform/sessions.js'
import { SESSION_ENDED_CHANNEL, SessionCache } from './platform/session-cache.js'
import { listenTo } from './db/pg-listener.js'
import { ApiTokenStore } from './platform/api-tokens.js'
import { GRANTS_CHANGED_CHANNEL, PermissionResolver } from './platform/permissions.js'
import { SETTINGS_CHANGED_CHANNEL, SettingsCache } from './platform/settings-cache.js'
import { CodeSender } from './platform/code-sender.js'
import { installAuthHook } from './platform/auth-hook.js'
import { installMessageLanguage } from './i18n/message-language.js'
import type { Services } from './engine/services.js'
import { OPERATOR_TENANT_ID, seedPlatform, seedTenant } from './modules/system/seed.js'
import { authModule } from './modules/auth/index.js'
import { systemModule } from './modules/system/index.js'
import { noticeRoutes } from './modules/system/notices.js'
import { todoRoutes } from './modules/system/todos.js'
import { backupRoutes } from './modules/system/backups.js'
import { webhookRoutes } from './modules/system/webhooks.js'
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.js'
import { apiTokenRoutes } from './modules/system/api-tokens.js'
import { dataPermissionRoutes, dataPermissionSetup } from './modules/system/data-permission.js'
import { dataPermissionFilter } from './platform/data-permission-filter.js'
import { basedataModule } from './modules/basedata/index.js'
import { stockModule } from './modules/stock/index.js'
import { metaModule } from './modules/meta/index.js'
import { openApiRoute } from './modules/meta/openapi-route.js'
import { collectApiRoutes, openApiDocument } from './platform/openapi.js'
import { APP_VERSION } from './backup/app-version.js'
import { registerSourceLoaders } from './domain/documents/source-link.js'
import { componentModule } from './modules/component/index.js'
import { lowcodeModule } from './modules/lowcode/index.js'
import { settlePaymentsModule } from './modules/settle/payments.js'
import { crmReportsModule } from './modules/crm/reports.js'
import { crmCustomersModule } from './modules/crm/customers.js'
import { logisticsModule } from './modules/logistics/index.js'
import { qrtzModule } from './modules/qrtz/index.js'
import { JobScheduler } from './jobs/scheduler.js'
import { swModule } from './modules/sw/index.js'
import { printModule } from './modules/print/index.js'
import { MessageBus } from './realtime/message-bus.js'
import { messageModule } from './modules/message/index.js'

import { drainRequest } from './platform/request-drain.js'
import { appLogger, installSlowRequestLog } from './platform/app-logger.js'
import { AppMetrics } from './platform/app-metrics.js'
import { metricsRoute } from './platform/metrics-route.js'
import { installStopGuard } from './platform/graceful-stop.js'
import { answerClientError } from './platform/client-errors.js'

export interface BuildOptions {
  /** Extra folders of entity files (tests add an entity as one JSON file). */
  entityDirs?: string[]
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services
    scheduler: JobScheduler
    /** The OpenAPI document of the routes served (built when first asked, then kept). */
    openApi: () => Record<string, unknown>
  }
}

/** The Fastify app, migrated and seeded, not listening: main.ts listens, tests inject. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...appLogger(config),
    // A request reaching a closing app is answered by installStopGuard, in the envelope.
    return503OnClosing: false,
    genReqId: () => Math.random().toString(36).slice(2, 12),
    // 1 MB for JSON and form bodies; uploads and imports are multipart, limited per route by their own file size.
    bodyLimit: JSON_BODY_LIMIT,
    // Modules migrate their own tables while they register (import tasks, the bus, jobs): on a busy machine
    // or a large database that outlasts Fastify's default of 10 s, which would fail the start.
    pluginTimeout: 120_000,
    clientErrorHandler: answerClientError,
  })
  installStopGuard(app)
  // Languages kept in folders (the tests' fixture language), as ENTITY_DIRS adds entities.
  registerLocaleDirs()
  const registry = new EntityRegistry(options.entityDirs ?? (process.env.ENTITY_DIRS?.split(path.delimiter).filter(Boolean) ?? []))
  // Before a database is opened: a document file naming hooks that do not exist stops the start here.
  const hookFactories = documentHookFactories(registry, DOCUMENT_HOOKS, DOCUMENT_HOOKS_SOURCE)
  const target = parseDatabaseUrl(config.databaseUrl)
  const databases = new Databases(target)
  const codec = new RecordCodec(databases.kind, registry.enums)
  const hooks = new HookRegistry()
  const store = new EntityStore(databases.kind, registry, codec, hooks)
  const documentHooks = new Map<string, DocumentHooks>()
  // PostgreSQL: session reads between two activity writes, grants and configurations come from caches that
  // triggers keep true on every process through one listening connection.
  const sessionCache = target.kind === 'postgres' ? new SessionCache(Math.min(ACTIVITY_WRITE_MS, config.sessionIdleMinutes * 60_000)) : undefined
  const sessions = new SessionStore(databases.platform, config.sessionIdleMinutes, config.sessionMaxHours, sessionCache)
  const permissions = new PermissionResolver()
  const settings = new SettingsCache()
  const notifications =
    sessionCache &&
    listenTo(target.location, {
      [SESSION_ENDED_CHANNEL]: sessionCache.heard.events,
      [GRANTS_CHANGED_CHANNEL]: permissions.heard.events,
      [SETTINGS_CHANGED_CHANNEL]: settings.heard.events,
    })
  const services: Services = {
    config,
    databases,
    registry,
    codec,
    hooks,
    store,
    documents: new DocumentStore(store, documentHooks, postDocumentStock, lockDocumentStock, documentSettlement(registry)),
    sessions,
    apiTokens: new ApiTokenStore(databases.platform, config.apiTokenCallsPerMinute),
    permissions,
    settings,
    sender: new CodeSender(app.log, config.smtpUrl, config.mailFrom),
    bus: new MessageBus(databases, sessions, permissions, app.log),
    metrics: new AppMetrics({ databases, sockets: () => services.bus.localSockets() }),
    operatorTenantId: OPERATOR_TENANT_ID,
    tenantIds: async () =>
      (await databases.platform.selectFrom('tenant').select('id').execute()).map((r) => String(r.id)),
    provisionTenant: async (tenantId, name) => {
      await migrateTenant(databases, registry, tenantId)
      await seedTenant(services, tenantId, name)
    },
  }
  // The hooks get the services they work with, so they are made once those exist (before any request).
  for (const [name, make] of hookFactories) documentHooks.set(name, make(services))
  app.decorate('services', services)
  const permissionSetup = dataPermissionSetup(services)
  services.store.dataFilter = (db, ctx, type, aliases, references) => dataPermissionFilter(permissionSetup, db, ctx, type, aliases, references)
  dropKeptOnWrite(services)
  app.addHook('onClose', async () => {
    await notifications?.close()
    await databases.close()
  })
  // The scheduler starts once the app is ready and stops (waiting for its runs) before the databases close.
  const scheduler = new JobScheduler(
    services,
    { enabled: config.scheduler, leaderRetryMs: config.schedulerLeaderRetryMs, runLeaseMs: config.schedulerRunLeaseMs },
    app.log,
  )
  app.decorate('scheduler', scheduler)
  app.addHook('onReady', async () => scheduler.start())
  app.addHook('preClose', async () => scheduler.stop())
  // Webhooks are sent after the commits that wrote them; a stop waits for the attempts in flight.
  const webhooks = new WebhookDispatcher(services, app.log)
  app.addHook('onReady', async () => webhooks.start())
  app.addHook('preClose', async () => webhooks.stop())

  await provisionPlatform(databases, registry)
  await seedPlatform(services)
  await services.bus.migrate()
  for (const tenantId of await services.tenantIds()) await services.provisionTenant(tenantId, '')

  await app.register(formbody)
  await app.register(multipart, { limits: { fileSize: 20 * 1024 * 1024, files: 1 } })
  services.metrics.install(app)
  installSlowRequestLog(app, config)
  installErrorHandling(app)
  installMessageLanguage(app)
  installInputGuard(app)
  installAuthHook(app, services)

  app.get('/healthz', async () => ({ status: 'ok', database: databases.kind }))
  metricsRoute(app, config, services.metrics)
  const apiRoutes = collectApiRoutes(app)
  let openApi: Record<string, unknown> | undefined
  app.decorate('openApi', () => (openApi ??= openApiDocument(apiRoutes, registry, APP_VERSION)))
  await app.register(async (scope) => {
    openApiRoute(scope)
    registerMasterDataRoutes(scope, services)
    registerCodeRuleRoutes(scope, services)
    registerSelectorRoutes(scope, services)
    registerDocumentRoutes(scope, services, services.documents)
    registerSourceLoaders(scope, services)
    authModule(scope, services)
    systemModule(scope, services)
    noticeRoutes(scope, services)
    todoRoutes(scope, services)
    backupRoutes(scope, services)
    webhookRoutes(scope, services)
    apiTokenRoutes(scope, services)
    dataPermissionRoutes(scope, services)
    basedataModule(scope, services)
    stockModule(scope, services)
    metaModule(scope, services)
    purchaseModule(scope, services)
    saleModule(scope, services)
    retailModule(scope, services)
    chartModule(scope, services)
    stockDocsModule(scope, services)
    settleModule(scope, services)
    balanceReportRoutes(scope, services)
    crmDealsModule(scope, services)
    lowcodeModule(scope, services)
    settlePaymentsModule(scope, services)
    crmReportsModule(scope, services)
    crmCustomersModule(scope, services)
    logisticsModule(scope, services)
    qrtzModule(scope, services, scheduler)
    swModule(scope, services)
    printModule(scope, services)
    messageModule(scope, services)
    await componentModule(scope, services)
  })
  await services.bus.attach(app.server, config.databaseUrl, { heartbeatMs: config.busHeartbeatMs, expireMs: config.busProcessExpireMs })
  // Before the databases close (onClose): sockets go first, so none is served by a closed pool.
  app.addHook('preClose', async () => services.bus.close())

  const webRoot = config.webRoot
  const hasClient = webRoot && fs.existsSync(path.join(webRoot, 'index.html'))
  if (hasClient)
    await app.register(fastifyStatic, {
      root: webRoot,
      // The build writes a gzipped copy beside each asset (vite.config.ts precompressedAssets): sent to a
      // browser that accepts it, the file itself to one that does not.
      preCompressed: true,
      // Our own Cache-Control (@fastify/static's own would overwrite what setHeaders sets). Vite names what
      // it writes under assets/ by content hash: such a file never changes, so a reload asks for none of
      // them again (the print designer's 10 MB font is fetched once); index.html is asked again each time.
      cacheControl: false,
      setHeaders: (res, file) => {
        res.setHeader('Cache-Control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache')
        res.setHeader('Vary', 'Accept-Encoding')
      },
    })
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith(API_PREFIX) || !hasClient || req.method !== 'GET') {
      return reply.code(404).send({ code: 404, msg: '接口不存在' })
    }
    return reply.type('text/html').sendFile('index.html')
  })
  return app
}

/** Largest JSON (or form) body a route accepts. */
export const JSON_BODY_LIMIT = 1024 * 1024
/** Deepest nesting of arrays and objects a request may carry (the deepest metadata, a page schema, is far shallower). */
export const MAX_INPUT_DEPTH = 128

/**
 * What no route can store or search for: a NUL character (PostgreSQL text cannot hold it, SQLite cuts a
 * LIKE pattern at it) anywhere in the query, the path parameters or the body, keys included; and
 * nesting deeper than MAX_INPUT_DEPTH. Checked once, before any route sees the request, without
 * recursion (a 10,000-level array must not exhaust the stack).
 */
function installInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    const stack: [unknown, number][] = [[req.query, 1], [req.params, 1], [req.body, 1]]
    while (stack.length) {
      const [value, depth] = stack.pop() as [unknown, number]
      if (typeof value === 'string') {
        if (value.includes('\0')) throw invalid('请求参数不能包含空字符（\\0）')
        continue
      }
      if (!value || typeof value !== 'object') continue
      if (depth > MAX_INPUT_DEPTH) throw invalid('请求参数嵌套层级过深')
      if (Buffer.isBuffer(value)) continue
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\0')) throw invalid('请求参数不能包含空字符（\\0）')
        stack.push([item, depth + 1])
      }
    }
  })
}

function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (error instanceof BizError) {
      return reply.code(error.status).send({ code: error.code, msg: error.message, field: error.field })
    }
    const refusal = databaseRefusal(error)
    if (refusal) {
      req.log.warn({ err: error, traceId: req.id }, 'database refused the request')
      return reply.code(refusal.status).send({ code: refusal.status, msg: refusal.msg })
    }
    const status = error.statusCode ?? 500
    if (status === 413) {
      // A route may allow more than the app's 1 MB (the spreadsheet save): name the limit that applied.
      const limit = Math.round((req.routeOptions.bodyLimit ?? JSON_BODY_LIMIT) / 1024 / 1024)
      const envelope = { code: 413, msg: error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? `请求内容过大，不能超过${limit}MB` : '请求内容过大' }
      // The rest of the body is read first, so the answer reaches a client that is still sending it.
      return drainRequest(req.raw).then(() => reply.code(413).send(envelope))
    }
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ code: status, msg: error.validation ? `参数错误：${error.message}` : '请求参数格式错误' })
    }
    req.log.error({ err: error, traceId: req.id }, 'request failed')
    return reply.code(500).send({ code: 500, msg: '系统出现内部错误，请联系系统管理员！', traceId: req.id })
  })
}
