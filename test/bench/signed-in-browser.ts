/**
 * Debian's Chromium (CHROME_PATH to override) at 1440 × 900, signed in as admin the way the login page
 * leaves the browser (token, user and roles in localStorage), for the benches that time the running shell.
 */
import { chromium, type Browser, type BrowserContext } from 'playwright-core'

export async function signedInBrowser(baseURL: string): Promise<{ browser: Browser; context: BrowserContext }> {
  const login = (await (
    await fetch(`${baseURL}/cloud-api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin123456' }) })
  ).json()) as { data: { token: string; user: unknown; roles: string[]; permissions: string[] } }
  const { token, user, roles, permissions } = login.data
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' })
  await context.addInitScript(
    ([t, u, r]) => {
      localStorage.setItem('X-Auth-Token', t)
      localStorage.setItem('admin.user', u)
      localStorage.setItem('admin.roles', r)
    },
    [token, JSON.stringify({ user, permissions }), JSON.stringify(roles)] as const,
  )
  return { browser, context }
}
