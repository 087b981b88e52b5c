import type { IncomingMessage } from 'node:http'

/** Most a refused body is read and thrown away for before the answer goes anyway (and the socket closes). */
export const DRAIN_MAX_BYTES = 256 * 1024 * 1024
/** Longest a refused body is waited for (a client trickling it would otherwise hold the socket). */
export const DRAIN_MAX_MS = 30_000

/**
 * Reads and discards the rest of a request body that will not be used (a 413), up to a bound.
 *
 * Node answers a request whose body was not read with `Connection: close` and ends the socket as soon as
 * the answer is written; the client, still sending, then meets a closed socket (EPIPE / reset) and often
 * never reads the answer. Reading the body first lets the whole request arrive, so the answer reaches the
 * client and the connection may even be kept. Past the bounds the answer goes anyway.
 */
export function drainRequest(raw: IncomingMessage, maxBytes = DRAIN_MAX_BYTES, maxMs = DRAIN_MAX_MS): Promise<void> {
  if (raw.complete || raw.destroyed || raw.readableEnded) return Promise.resolve()
  return new Promise((resolve) => {
    let seen = 0
    const done = () => {
      clearTimeout(timer)
      raw.off('data', onData)
      raw.off('end', done)
      raw.off('close', done)
      raw.off('error', done)
      resolve()
    }
    const onData = (chunk: Buffer | string) => {
      seen += chunk.length
      if (seen > maxBytes) done()
    }
    const timer = setTimeout(done, maxMs)
    raw.on('data', onData)
    raw.on('end', done)
    raw.on('close', done)
    raw.on('error', done)
    raw.resume()
  })
}
