import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'

/** How long a socket refused before any route stays open to take what the client still sends. */
const LINGER_MS = 5000

const answered = new WeakSet<Duplex>()

/** The envelope of a request Node could not even parse (no route, no Fastify reply exists for it). */
export function clientErrorAnswer(code: string | undefined): { status: number; msg: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, msg: '请求地址或请求头过长' }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, msg: '请求超时' }
  return { status: 400, msg: '请求格式错误' }
}

/**
 * Fastify's `clientErrorHandler`: a request line or headers Node refuses (an URL of 3,000 query
 * parameters passes Node's 16 KB header limit) are answered with the `{code,msg}` envelope instead of
 * Fastify's bare JSON. The answer is written and the socket half-closed; what the client still sends is
 * read and dropped until it closes (bounded), so closing does not reset the connection before the client
 * reads the answer. Node calls this again for each later chunk of the same socket: answered once.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return
  answered.add(socket)
  const { status, msg } = clientErrorAnswer(error.code)
  const body = JSON.stringify({ code: status, msg })
  if (socket.writable)
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  const timer = setTimeout(() => socket.destroy(), LINGER_MS)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
  socket.once('end', () => socket.destroy())
  socket.resume()
}
