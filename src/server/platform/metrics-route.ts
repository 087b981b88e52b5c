import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AppConfig } from '../config.js'
import type { AppMetrics } from './app-metrics.js'
import { addressList } from './address-list.js'

/** Outside the API prefix, where Prometheus looks by default. */
export const METRICS_PATH = '/metrics'
export const METRICS_REFUSED = '无权访问监控指标：请从允许的地址访问，或提供正确的访问令牌'

/**
 * `GET /metrics`: the Prometheus text of this process, for the addresses of METRICS_ALLOW (loopback by
 * default) or a request carrying `Authorization: Bearer <METRICS_TOKEN>`; anyone else gets 403 in the
 * envelope. Each process of `npm run cluster` answers on its own port for itself.
 */
export function metricsRoute(app: FastifyInstance, config: AppConfig, metrics: AppMetrics): void {
  const allowed = addressList('METRICS_ALLOW', config.metricsAllow)
  const token = config.metricsToken && digest(config.metricsToken)
  app.get(METRICS_PATH, async (req, reply) => {
    if (!allowed(clientAddress(req)) && !(token && bearerMatches(req, token))) {
      return reply.code(403).send({ code: 403, msg: METRICS_REFUSED })
    }
    const text = await metrics.text()
    return reply.type(metrics.contentType).send(text)
  })
}

const plain = (address: string) => (address.startsWith('::ffff:') ? address.slice(7) : address)
const isLoopback = (address: string) => address === '127.0.0.1' || address === '::1'

/**
 * The address to judge: the connection's, except through a proxy on this machine (`npm run cluster`'s,
 * which adds X-Forwarded-For): then the address that proxy saw, the last entry, which a client cannot
 * forge (its own entries come before). Otherwise every browser behind the local proxy would be loopback.
 */
function clientAddress(req: FastifyRequest): string {
  const direct = plain(req.socket.remoteAddress ?? '')
  if (!isLoopback(direct)) return direct
  const forwarded = req.headers['x-forwarded-for']
  const entries = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded ?? '').split(',').map((a) => a.trim()).filter(Boolean)
  return entries.length ? plain(entries[entries.length - 1]) : direct
}

const digest = (value: string) => createHash('sha256').update(value).digest()

/** Compared as digests in constant time: the answer's timing says nothing about the token. */
function bearerMatches(req: FastifyRequest, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')
  return match !== null && timingSafeEqual(digest(match[1]), expected)
}
