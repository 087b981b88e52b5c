import { io, type Socket } from 'socket.io-client'
import { BUS_SOCKET_PATH } from '../../src/shared/contracts/bus.js'

/** A bus socket signed in with `token` (websocket only, no automatic reconnection: tests decide). */
export function openBus(baseUrl: string, token: string | undefined): Socket {
  return io(baseUrl, {
    path: BUS_SOCKET_PATH,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: token === undefined ? {} : { token },
  })
}

/** Resolves with the socket once connected; rejects with the server's refusal message. */
export function connectBus(baseUrl: string, token: string | undefined, timeoutMs = 5000): Promise<Socket> {
  const socket = openBus(baseUrl, token)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bus connect timed out')), timeoutMs)
    socket.once('connect', () => {
      clearTimeout(timer)
      resolve(socket)
    })
    socket.once('connect_error', (error) => {
      clearTimeout(timer)
      socket.close()
      reject(error)
    })
  })
}

/** Every payload of `event` the socket receives from now on, in order. */
export function recorder<T = unknown>(socket: Socket, event: string): T[] {
  const got: T[] = []
  socket.on(event, (payload: T) => got.push(payload))
  return got
}

/** The next payload of `event` that `match` accepts. */
export function nextEvent<T = unknown>(socket: Socket, event: string, match: (payload: T) => boolean = () => true, timeoutMs = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener)
      reject(new Error(`no ${event} within ${timeoutMs} ms`))
    }, timeoutMs)
    const listener = (payload: T) => {
      if (!match(payload)) return
      clearTimeout(timer)
      socket.off(event, listener)
      resolve(payload)
    }
    socket.on(event, listener)
  })
}

/** Resolves with the reason once the socket is disconnected. */
export function disconnected(socket: Socket, timeoutMs = 5000): Promise<string> {
  if (!socket.connected) return Promise.resolve('already disconnected')
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still connected after ${timeoutMs} ms`)), timeoutMs)
    socket.once('disconnect', (reason) => {
      clearTimeout(timer)
      resolve(reason)
    })
  })
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
