import { io, type Socket } from 'socket.io-client'
import { BUS_SOCKET_PATH } from '../../../shared/contracts/bus.js'

/** 000 §4/§9: while a token exists, a lost bus connection is tried again every 3 seconds. */
export const RECONNECT_CHECK_MS = 3000

type Listener = (event: string, payload: unknown) => void

/** The listeners' event (not the server's) of a connection back after it was lost. */
export const BUS_RECONNECTED = 'bus:reconnected'

let socket: Socket | null = null
let token: string | null = null
let check: ReturnType<typeof setInterval> | undefined
const listeners = new Set<Listener>()

/**
 * The one bus connection of the page, signed in with the session token. socket.io's own retries run at a
 * fixed 3 s (no growth); a connection the server ended or refused (logout elsewhere, a restart that lost
 * the handshake) is not retried by socket.io, so a 3 s check starts it again while the token exists.
 * WebSocket only: behind several server processes no sticky sessions are needed.
 */
export function startBus(sessionToken: string): void {
  if (socket && token === sessionToken) return
  stopBus()
  token = sessionToken
  const s = io({
    path: BUS_SOCKET_PATH,
    transports: ['websocket'],
    auth: { token: sessionToken },
    reconnectionDelay: RECONNECT_CHECK_MS,
    reconnectionDelayMax: RECONNECT_CHECK_MS,
    randomizationFactor: 0,
  })
  s.onAny((event: string, payload: unknown) => {
    for (const l of listeners) l(event, payload)
  })
  // Events sent while the connection was down are not sent again: after a reconnect the listeners read afresh.
  let connectedBefore = false
  s.on('connect', () => {
    if (connectedBefore) for (const l of listeners) l(BUS_RECONNECTED, undefined)
    connectedBefore = true
  })
  socket = s
  check = setInterval(() => {
    if (!s.connected && !s.active) s.connect()
  }, RECONNECT_CHECK_MS)
}

/** Closes the connection (logout, or the token is gone). */
export function stopBus(): void {
  clearInterval(check)
  check = undefined
  socket?.off()
  socket?.disconnect()
  socket = null
  token = null
}

/** Calls `listener` with every bus event; returns the unsubscribe. */
export function onBus(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Whether the bus is connected now (tests and diagnostics). */
export function busConnected(): boolean {
  return socket?.connected ?? false
}
