import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify'
import pretty from 'pino-pretty'
import type { AppConfig } from '../config.js'

/**
 * The Fastify logger of the configured format. `pretty` (the default) is for a person at a terminal: one
 * short line per event through pino-pretty, and no line per request (Fastify's request logging is off;
 * slow requests say so, see installSlowRequestLog). `json` keeps pino's JSON lines and Fastify's
 * per-request lines for a log shipper.
 */
export function appLogger(config: AppConfig): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  if (config.logFormat === 'json' || config.logLevel === 'silent') return { logger: { level: config.logLevel } }
  const stream = pretty({
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId',
    singleLine: true,
    // Written before the process exits (a stop, a failed start): few lines, so no buffering is needed.
    sync: true,
  })
  return { logger: { level: config.logLevel, stream }, logController: new LogController({ disableRequestLogging: true }) }
}

/** One warning per request slower than LOG_SLOW_MS (both formats; in json it adds to the request lines). */
export function installSlowRequestLog(app: FastifyInstance, config: AppConfig): void {
  app.addHook('onResponse', async (req, reply) => {
    const ms = Math.round(reply.elapsedTime)
    if (ms < config.logSlowMs) return
    const path = req.url.split('?')[0]
    const text = `slow request: ${req.method} ${path} ${reply.statusCode} in ${ms} ms`
    if (config.logFormat === 'json') req.log.warn({ method: req.method, url: path, statusCode: reply.statusCode, responseTime: ms }, 'slow request')
    else req.log.warn(text)
  })
}
