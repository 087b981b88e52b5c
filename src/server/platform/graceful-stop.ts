import type { FastifyInstance } from 'fastify'

export const STOPPING_MESSAGE = '服务正在停止，请稍后重试！'

/**
 * From the moment the app starts closing, a request that still reaches it (on a connection kept alive)
 * is answered 503 in the envelope; requests already running go on. Fastify's own answer at that moment is
 * not in the envelope, so the app is built with `return503OnClosing: false` and this hook answers instead.
 * Every answer from then on closes its connection, and connections left idle are closed as they appear:
 * the server's close waits for every connection, and a client keeps an idle one open for a minute
 * (Fastify's keep-alive of 72 s). Installed first, so its preClose runs before the others wait for anything.
 */
export function installStopGuard(app: FastifyInstance): void {
  let closing = false
  let sweep: NodeJS.Timeout | undefined
  app.addHook('preClose', async () => {
    closing = true
    app.server.closeIdleConnections()
    sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS)
    sweep.unref()
  })
  app.addHook('onClose', async () => clearInterval(sweep))
  app.addHook('onRequest', async (_req, reply) => {
    if (!closing) return
    return reply.code(503).send({ code: 503, msg: STOPPING_MESSAGE })
  })
  app.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close')
  })
}

/** How often a closing app closes the connections that have become idle. */
const IDLE_SWEEP_MS = 200

/** A second Ctrl-C this long after the first stops at once (npm forwards the terminal's one, so it arrives twice). */
const REPEAT_AFTER_MS = 1000

/**
 * SIGTERM (and Ctrl-C): stop listening, let running requests, job runs and imports finish, close the
 * sockets and the databases, exit 0. Still not done after `timeoutMs`: exit 1 (each unfinished write is
 * one transaction, rolled back by the database; a job run's lease ends it as interrupted).
 */
export function stopOnSignals(app: FastifyInstance, timeoutMs: number): void {
  let since = 0
  const stop = (signal: NodeJS.Signals) => {
    if (since) {
      if (Date.now() - since < REPEAT_AFTER_MS) return
      app.log.warn(`${signal} again: stopping now without waiting`)
      process.exit(1)
    }
    since = Date.now()
    app.log.info(`${signal}: stopping; no new requests, running requests and job runs may finish within ${Math.round(timeoutMs / 1000)} s`)
    const deadline = setTimeout(() => {
      app.log.error(`still not stopped after ${Math.round(timeoutMs / 1000)} s: exiting with what is running rolled back`)
      process.exit(1)
    }, timeoutMs)
    deadline.unref()
    app.close().then(
      () => {
        app.log.info(`stopped in ${Date.now() - since} ms`)
        process.exit(0)
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'stop failed')
        process.exit(1)
      },
    )
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal))
}
