/// <reference lib="webworker" />
/** The browser's sandbox Web Worker: one QuickJS engine (the shared one), one request at a time. */
import { createSandboxHandler, type SandboxMessage, type SandboxRequest } from '../../shared/sandbox/worker-protocol.js'

const scope = self as unknown as DedicatedWorkerGlobalScope
const handler = createSandboxHandler()
const send = (message: SandboxMessage) => scope.postMessage(message)

handler.ready.then(
  () => send({ id: 0, ready: true }),
  (e: unknown) => send({ id: 0, ready: false, message: e instanceof Error ? e.message : String(e) }),
)

let chain: Promise<void> = Promise.resolve()
scope.onmessage = (event: MessageEvent<SandboxRequest>) => {
  const request = event.data
  chain = chain.then(async () => send(await handler.handle(request)))
}
