/// <reference lib="webworker" />
/** The browser's sandbox Web Worker: one QuickJS engine (the shared one), one request at a time. */
import { serveSandbox, type SandboxMessage, type SandboxRequest } from '../../shared/sandbox/worker-protocol.js'

const scope = self as unknown as DedicatedWorkerGlobalScope
const onRequest = serveSandbox((message: SandboxMessage) => scope.postMessage(message))
scope.onmessage = (event: MessageEvent<SandboxRequest>) => onRequest(event.data)
