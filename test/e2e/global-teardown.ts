import { rm } from 'node:fs/promises'
import { type E2eServer, SERVER_KEY } from './global-setup.js'

/** Stops the server the global setup started and removes its DATA_DIR. */
export default async function globalTeardown(): Promise<void> {
  const holder = globalThis as { [SERVER_KEY]?: E2eServer }
  const server = holder[SERVER_KEY]
  if (!server) return
  delete holder[SERVER_KEY]
  const { child, dataDir } = server
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
  await rm(dataDir, { recursive: true, force: true })
}
