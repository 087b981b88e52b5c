import { test as base, expect, type APIRequestContext, type BrowserContextOptions, type Locator, type Page } from '@playwright/test'

/**
 * Shared pieces of the e2e specs: signing in through the real login page, one administrator session
 * per worker reused by every test through `storageState`, an API client with that session's token for
 * test data, and locators for the generic entity screens (list, form dialog, pickers).
 */

export const ADMIN = { username: 'admin', password: 'admin123456' }

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>

/** Signs in on /login as a user does and waits until the shell has taken over. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('用户名', { exact: true }).fill(username)
  await page.getByLabel('密码', { exact: true }).fill(password)
  await page.getByRole('button', { name: '登录', exact: true }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/login'))
}

/** A short text unique to this run and call, usable in codes (letters and digits, at most 8 characters). */
let counter = 0
export function uniqueSuffix(): string {
  counter += 1
  return `${(Date.now() % 2_176_782_336).toString(36)}${counter.toString(36)}`.toUpperCase().slice(-8)
}

/** The JSON API with the administrator's token (`/cloud-api` envelope unwrapped; a failure throws). */
export interface AdminApi {
  token: string
  get<T = unknown>(path: string, query?: Record<string, string | number | boolean>): Promise<T>
  post<T = unknown>(path: string, body: unknown): Promise<T>
}

function adminApi(request: APIRequestContext, token: string): AdminApi {
  const unwrap = async <T>(what: string, response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> => {
    const text = await response.text()
    let body: { code?: number; msg?: string; data?: T }
    try {
      body = JSON.parse(text) as typeof body
    } catch {
      throw new Error(`${what}: HTTP ${response.status()} ${text.slice(0, 200)}`)
    }
    if (!response.ok() || body.code !== 200) throw new Error(`${what}: HTTP ${response.status()} ${body.msg ?? text.slice(0, 200)}`)
    return body.data as T
  }
  const headers = { 'X-Auth-Token': token }
  return {
    token,
    get: async (path, query) => unwrap(`GET ${path}`, await request.get(`/cloud-api${path}`, { headers, params: query })),
    post: async (path, body) => unwrap(`POST ${path}`, await request.post(`/cloud-api${path}`, { headers, data: body })),
  }
}

interface AdminSession {
  storageState: StorageState
  token: string
}

/**
 * `test` with the administrator signed in: the worker signs in once through the login page, and every
 * test's browser context starts from that saved local storage (token and user), so a test opens its
 * screen directly. `api` calls the server with the same token, for test data.
 */
export const test = base.extend<{ api: AdminApi }, { adminSession: AdminSession }>({
  adminSession: [
    async ({ browser }, use) => {
      const baseURL = process.env.E2E_BASE_URL
      if (!baseURL) throw new Error('E2E_BASE_URL is not set: the global setup starts the server')
      const context = await browser.newContext({ baseURL, locale: 'zh-CN' })
      try {
        const page = await context.newPage()
        const answer = page.waitForResponse((r) => r.url().endsWith('/cloud-api/auth/login') && r.request().method() === 'POST')
        await signIn(page, ADMIN.username, ADMIN.password)
        const body = (await (await answer).json()) as { data: { token: string } }
        await expect(page.getByRole('menu', { name: '顶部菜单' })).toBeVisible()
        const storageState = await context.storageState()
        await use({ storageState, token: body.data.token })
      } finally {
        await context.close()
      }
    },
    // One sign-in for all the worker's tests; generous, as the machine may be busy with other runs.
    { scope: 'worker', timeout: 60_000 },
  ],
  storageState: async ({ adminSession }, use) => use(adminSession.storageState),
  api: async ({ playwright, adminSession, baseURL }, use) => {
    const request = await playwright.request.newContext({ baseURL })
    await use(adminApi(request, adminSession.token))
    await request.dispose()
  },
})

export { expect }

export const topMenu = (page: Page) => page.getByRole('menu', { name: '顶部菜单' })
export const sideMenu = (page: Page) => page.getByRole('menu', { name: '导航菜单' })

/** The shell pane of a page: open tabs stay mounted but hidden, so a test works inside the one it opened. */
export const paneOf = (page: Page, path: string): Locator => page.locator(`.shell-pane[data-page="${path}"]`)

/** Opens a function menu through the header catalog (when given) and the side menu, as a user does, and answers its pane. */
export async function openMenu(page: Page, catalog: string | undefined, item: string, path: string): Promise<Locator> {
  if (!page.url().startsWith('http')) await page.goto('/')
  if (catalog) await topMenu(page).getByRole('menuitem', { name: catalog }).click()
  await sideMenu(page).getByRole('menuitem', { name: item }).click()
  await expect(page).toHaveURL(new RegExp(`${path}$`))
  const pane = paneOf(page, path)
  await expect(pane).toBeVisible()
  return pane
}

/** Opens a screen by its address (a menu path or the generic `/entity/<name>`) and answers its pane. */
export async function openScreen(page: Page, path: string): Promise<Locator> {
  await page.goto(path)
  const pane = paneOf(page, path)
  await expect(pane).toBeVisible()
  return pane
}

/** The table rows of a list or picker that show this text. */
export const rowOf = (scope: Locator, text: string): Locator => scope.locator('.ant-table-row').filter({ hasText: text })

/** A toast (antd message) with this text. */
export const toast = (page: Page, text: string): Locator => page.locator('.ant-message-notice-content').filter({ hasText: text })

/** The messages shown under the items of a Formily form. */
export const fieldErrors = (form: Locator): Locator => form.locator('.ant-formily-item-error-help')

/** The 提示 confirmation (modal.confirm) that holds this text. */
export const confirmBox = (page: Page, text: string): Locator => page.locator('.ant-modal-confirm').filter({ hasText: text })

/** Picks an option of an antd Select by its visible text (antd's role=option nodes are hidden). */
export async function chooseOption(page: Page, scope: Locator, label: string, option: string): Promise<void> {
  await scope.getByRole('combobox', { name: label, exact: true }).click()
  const dropdown = page.locator('.ant-select-dropdown:visible')
  await dropdown.locator('.ant-select-item-option', { hasText: option }).first().click()
  await expect(dropdown).toHaveCount(0)
}
