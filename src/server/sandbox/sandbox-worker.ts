/** The worker_threads entry of the server's sandbox pool: one QuickJS engine, one request at a time. */
import { parentPort, workerData } from 'node:worker_threads'
import { serveSandbox, type SandboxMessage } from '../../shared/sandbox/worker-protocol.js'
import type { ScriptEngineOptions } from '../../shared/sandbox/script-engine.js'

const port = parentPort
if (!port) throw new Error('sandbox-worker.ts must run as a worker thread')

const onRequest = serveSandbox((message: SandboxMessage) => port.postMessage(message), (workerData ?? {}) as ScriptEngineOptions)
port.on('message', onRequest)
