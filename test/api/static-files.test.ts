import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gzipSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

/**
 * The built client as the server sends it (WEB_ROOT): a hashed asset is cached for good and sent gzipped
 * to a browser that accepts it (the build writes the `.gz` beside it); the page itself is asked again
 * at every load, so a new release shows at the next reload.
 */
describe('the client files', () => {
  let t: TestApp
  const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-web-'))
  const script = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `行${i}`))}\n`
  beforeAll(async () => {
    fs.mkdirSync(path.join(webRoot, 'assets'))
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>星云 ERP</title><div id="root"></div>')
    fs.writeFileSync(path.join(webRoot, 'assets', 'page-Ab12Cd34.js'), script)
    fs.writeFileSync(path.join(webRoot, 'assets', 'page-Ab12Cd34.js.gz'), gzipSync(script))
    fs.writeFileSync(path.join(webRoot, 'assets', 'logo-Ef56Gh78.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
    t = await startTestApp({ env: { WEB_ROOT: webRoot } })
  })
  afterAll(async () => {
    await t?.close()
    fs.rmSync(webRoot, { recursive: true, force: true })
  })

  const get = (url: string, encoding?: string) => t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} })

  it('sends a hashed asset gzipped to a browser that accepts it, the same bytes unpacked, cached for good', async () => {
    const packed = await get('/assets/page-Ab12Cd34.js', 'gzip, deflate, br')
    expect(packed.statusCode).toBe(200)
    expect(packed.headers['content-encoding']).toBe('gzip')
    expect(packed.headers['content-type']).toMatch(/javascript/)
    expect(packed.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(packed.headers.vary).toMatch(/Accept-Encoding/i)
    expect(gunzipSync(packed.rawPayload).toString()).toBe(script)
    expect(packed.rawPayload.length).toBeLessThan(script.length / 2)
  })

  it('sends the file itself to a client that does not accept gzip, and an asset without a copy as it is', async () => {
    const plain = await get('/assets/page-Ab12Cd34.js')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(script)
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const svg = await get('/assets/logo-Ef56Gh78.svg', 'gzip')
    expect(svg.statusCode).toBe(200)
    expect(svg.headers['content-encoding']).toBeUndefined()
    expect(svg.headers['cache-control']).toBe('public, max-age=31536000, immutable')
  })

  it('asks again for the page at every load, at its own address and at a route of the app', async () => {
    for (const url of ['/', '/index.html', '/system/user']) {
      const page = await get(url)
      expect(page.statusCode, url).toBe(200)
      expect(page.body).toContain('星云 ERP')
      expect(page.headers['cache-control'], url).toBe('no-cache')
    }
  })
})
