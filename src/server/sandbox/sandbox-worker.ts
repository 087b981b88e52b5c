/** The worker_threads entry of the server's sandbox pool: one QuickJS engine, one request at a time. */
import { parentPort, workerData } from 'node:worker_threads'
import { createSandboxHandler, type SandboxMessage, type SandboxRequest } from '../../shared/sandbox/worker-protocol.js'
import type { ScriptEngineOptions } from '../../shared/sandbox/script-engine.js'

const port = parentPort
if (!port) throw new Error('sandbox-worker.ts must run as a worker thread')

const handler = createSandboxHandler((workerData ?? {}) as ScriptEngineOptions)
const send = (message: SandboxMessage) => port.postMessage(message)

handler.ready.then(
  () => send({ id: 0, ready: true }),
  (e: unknown) => send({ id: 0, ready: false, message: e instanceof Error ? e.message : String(e) }),
)

let chain: Promise<void> = Promise.resolve()
port.on('message', (request: SandboxRequest) => {
  chain = chain.then(async () => send(await handler.handle(request)))
})
