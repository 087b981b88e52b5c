/**
 * Unit-project setup: a test during which a wasm instance aborted fails, even when the code under test
 * recovered. Emscripten reports an abort (e.g. QuickJS's `Aborted(Assertion failed:
 * list_empty(&rt->gc_obj_list) … JS_FreeRuntime)`, a runtime freed with live objects) only as a line
 * on stderr, from this thread or a worker thread; such a line means a leak, never noise.
 */
import { afterAll, afterEach } from 'vitest'

const ABORT = /Aborted\(|Assertion failed: list_empty/
const seen: string[] = []

function watch(text: string): void {
  if (ABORT.test(text)) seen.push(text.trim().slice(0, 400))
}

function wrapStream(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    watch(typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) || chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : String(chunk))
    return write(chunk, ...rest)
  }) as NodeJS.WriteStream['write']
}

wrapStream(process.stderr)
wrapStream(process.stdout)
for (const level of ['error', 'warn', 'log', 'info', 'debug'] as const) {
  const original = console[level].bind(console)
  console[level] = (...args: unknown[]) => {
    watch(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack ?? ''}` : String(a))).join(' '))
    original(...args)
  }
}

function failOnAborts(when: string): void {
  if (seen.length === 0) return
  const lines = seen.splice(0)
  throw new Error(`a wasm instance aborted ${when} (a QuickJS runtime freed with live objects is a leak):\n${lines.join('\n')}`)
}

afterEach(() => failOnAborts('during this test'))

afterAll(async () => {
  // a worker thread's stderr reaches this thread asynchronously
  await new Promise((resolve) => setTimeout(resolve, 100))
  failOnAborts('in this file, after its last test')
})
