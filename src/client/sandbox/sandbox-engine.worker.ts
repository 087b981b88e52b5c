/// <reference lib="webworker" />
/** The engine thread of the browser's sandbox: one QuickJS engine (the shared one), one request at a time. */
import { serveSandbox, type SandboxMessage, type SandboxRequest } from '../../shared/sandbox/worker-protocol.js'
import { BROWSER_STACK_BYTES } from '../../shared/sandbox/sandbox-settings.js'

const scope = self as unknown as DedicatedWorkerGlobalScope
const onRequest = serveSandbox((message: SandboxMessage) => scope.postMessage(message), { maxStackBytes: BROWSER_STACK_BYTES })
scope.onmessage = (event: MessageEvent<SandboxRequest>) => onRequest(event.data)
