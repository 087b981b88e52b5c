import { test as base, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test'

/**
 * Shared pieces of the e2e specs: signing in through the real login page, the one administrator session
 * of the run (global-setup.ts) reused by every test through `storageState`, an API client with that session's token for
 * test data, and locators for the generic entity screens (list, form dialog, pickers).
 */

export const ADMIN = { username: 'admin', password: 'admin123456' }

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
  patch<T = unknown>(path: string, body: unknown): Promise<T>
  put<T = unknown>(path: string, body: unknown): Promise<T>
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
    patch: async (path, body) => unwrap(`PATCH ${path}`, await request.patch(`/cloud-api${path}`, { headers, data: body })),
    put: async (path, body) => unwrap(`PUT ${path}`, await request.put(`/cloud-api${path}`, { headers, data: body })),
  }
}

interface AdminSession {
  storageState: string
  token: string
}

/**
 * `test` with the administrator signed in: the global setup signs in once through the API and saves the
 * browser storage state (token and user in local storage), so every test's context starts signed in
 * and opens its screen directly. `api` calls the server with the same token, for test data. Tests of
 * the login page itself use `test.use({ storageState: { cookies: [], origins: [] } })`.
 */
export const test = base.extend<{ api: AdminApi }, { adminSession: AdminSession }>({
  adminSession: [
    async ({}, use) => {
      const storageState = process.env.E2E_STORAGE_STATE
      const token = process.env.E2E_ADMIN_TOKEN
      if (!process.env.E2E_BASE_URL || !storageState || !token) throw new Error('E2E_BASE_URL, E2E_STORAGE_STATE or E2E_ADMIN_TOKEN is not set: the global setup starts the server and signs in')
      await use({ storageState, token })
    },
    { scope: 'worker' },
  ],
  storageState: async ({ adminSession }, use) => use(adminSession.storageState),
  api: async ({ playwright, adminSession, baseURL }, use) => {
    const request = await playwright.request.newContext({ baseURL })
    await use(adminApi(request, adminSession.token))
    await request.dispose()
  },
})

export { expect }

/** A role granting the function menus of these permission keys (made through the API, for a test's own users). */
export async function roleWithKeys(api: AdminApi, role: { code: string; name: string }, keys: readonly string[]): Promise<string> {
  const roleId = await api.post<string>('/system/role', { ...role, available: true })
  const menus = await api.get<{ id: string; permission: string | null }[]>('/system/role/menu/menus', { roleId })
  await api.post('/system/role/menu/setting', { roleIds: [roleId], menuIds: menus.filter((m) => keys.includes(m.permission ?? '')).map((m) => m.id) })
  return roleId
}

/** A user holding one role, signing in with `secret123`. */
export async function userInRole(api: AdminApi, roleId: string, user: { username: string; name: string; deptIds?: string[] }) {
  const password = 'secret123'
  const id = await api.post<string>('/system/user', { code: user.username, name: user.name, username: user.username, password, gender: 0, available: true, deptIds: user.deptIds })
  await api.post('/system/user/role/setting', { userIds: [id], roleIds: [roleId] })
  return { id, username: user.username, password, name: user.name }
}

export const topMenu = (page: Page) => page.getByRole('menu', { name: '顶部菜单' })
export const sideMenu = (page: Page) => page.getByRole('menu', { name: '导航菜单' })

/** The shell pane of a page: open tabs stay mounted but hidden, so a test works inside the one it opened. */
/**
 * Today where the browser is (YYYY-MM-DD in the playwright config's time zone, Asia/Shanghai): the date a screen
 * starts from. It is a day ahead of the test process's own today from 16:00 UTC.
 */
export const browserToday = (page: Page): Promise<string> => page.evaluate(() => new Date().toLocaleDateString('sv-SE'))

export const paneOf = (page: Page, path: string): Locator => page.locator(`.shell-pane[data-page="${path}"]`)

/**
 * Clicks a header catalog as a user does: in the bar, or under 更多 when the bar has no room for it (how
 * many fit depends on the window and the system title).
 */
export async function openCatalog(page: Page, catalog: string): Promise<void> {
  const bar = topMenu(page)
  const item = bar.getByRole('menuitem', { name: catalog })
  const more = bar.locator('.ant-menu-overflow-item-rest:not([aria-hidden="true"])')
  // The bar measures itself after the first paint and may move a catalog under 更多 just then: retry.
  await expect(async () => {
    // Until the menus have loaded neither shows: wait for whichever comes, rather than for 更多 alone
    // (that wait ran out its 2 s whenever the catalog showed in the bar instead).
    await expect(item.or(more).filter({ visible: true }).first()).toBeVisible({ timeout: 2_000 })
    if (await item.isVisible()) return item.click({ timeout: 2_000 })
    await more.hover({ timeout: 2_000 })
    await page.locator('.ant-menu-submenu-popup:visible').getByRole('menuitem', { name: catalog }).click({ timeout: 2_000 })
  }).toPass({ timeout: 30_000 })
}

/** Opens a function menu through the header catalog (when given) and the side menu, as a user does, and answers its pane. */
export async function openMenu(page: Page, catalog: string | undefined, item: string, path: string): Promise<Locator> {
  if (!page.url().startsWith('http')) await page.goto('/')
  if (catalog) await openCatalog(page, catalog)
  await sideMenu(page).getByRole('menuitem', { name: item }).click()
  await expect(page).toHaveURL(new RegExp(`${path}$`))
  const pane = paneOf(page, path)
  await expect(pane).toBeVisible()
  return pane
}

/**
 * Opens a screen by its address (a menu path or the generic `/entity/<name>`) and answers its pane.
 * Inside the running shell the address changes in the page (as the router's links do), so the
 * client is not loaded and parsed again for every screen; a screen already open as a tab, or a page
 * not yet in the shell, is loaded afresh.
 */
export async function openScreen(page: Page, path: string): Promise<Locator> {
  const pane = paneOf(page, path)
  const inShell = page.url().startsWith('http') && !new URL(page.url()).pathname.startsWith('/login') && (await page.locator('.shell-pane').count()) > 0
  if (inShell && (await pane.count()) === 0) {
    await page.evaluate((to) => {
      window.history.pushState({}, '', to)
      window.dispatchEvent(new PopStateEvent('popstate', { state: {} }))
    }, path)
  } else {
    await page.goto(path)
  }
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`))
  await expect(pane).toBeVisible()
  return pane
}

/** The header's language button as each language names it (src/client/i18n/messages.ts, lang.switch). */
const LANGUAGE_BUTTON = { 繁體中文: '切換語言', English: 'Language', Français: 'Langue' } as const

/**
 * Switches the shell from Simplified Chinese to `to` and waits until the shell shows it: the language's
 * catalogues load before it applies, and on a busy machine a screen opened at once could still be
 * rendering in Chinese when the test looks for its English buttons.
 */
export async function switchLanguage(page: Page, to: keyof typeof LANGUAGE_BUTTON): Promise<void> {
  const switched = page.getByRole('button', { name: LANGUAGE_BUTTON[to], exact: true })
  // On a busy machine a click on the menu item while its dropdown is still opening can be lost: open and choose again.
  await expect(async () => {
    if (await switched.isVisible()) return
    await page.getByRole('button', { name: new RegExp(`^(切换语言|${Object.values(LANGUAGE_BUTTON).join('|')})$`) }).click({ timeout: 5_000 })
    await page.getByRole('menuitem', { name: to }).click({ timeout: 5_000 })
    await expect(switched).toBeVisible({ timeout: 5_000 })
  }).toPass({ timeout: 60_000 })
}

/** The table rows of a list or picker that show this text. */
export const rowOf = (scope: Locator, text: string): Locator => scope.locator('.ant-table-row').filter({ hasText: text })

/** Opens the picker of an input, clicking again while a dialog's opening animation swallows the click. */
export async function openPicker(page: Page, input: Locator, title: string): Promise<Locator> {
  const picker = page.getByRole('dialog', { name: title })
  await expect(async () => {
    await input.click()
    await expect(picker).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 15_000 })
  return picker
}

/**
 * Narrows a picker to the records of `codes` by its 编号 search (their common prefix) when it has one:
 * on the shared e2e server a picker holds many pages of other specs' records, sorted by code, so a
 * record need not be on the first page.
 */
export async function searchPicker(picker: Locator, ...codes: string[]): Promise<void> {
  const search = picker.getByPlaceholder('请输入编号')
  let prefix = codes[0] ?? ''
  for (const code of codes) while (!code.startsWith(prefix)) prefix = prefix.slice(0, -1)
  if (prefix.length < 2 || !(await search.count())) return
  await search.fill(prefix)
  await picker.getByRole('button', { name: '查询', exact: true }).click()
}

/**
 * A picker input holding one record labelled by its code: it shows the code alone (000 §9: the single-pick
 * label uses the code) and names the record in its tooltip.
 */
export async function expectPicked(input: Locator, code: string, name: string): Promise<void> {
  await expect(input).toHaveValue(code)
  await expect(input).toHaveAttribute('title', `${code} ${name}`)
}

/** A toast (antd message) with this text. */
/**
 * The newest toast saying `text`: two saves within a toast's life show it twice, the newer below the other
 * (a toast under the pointer also stays while hovered).
 */
export const toast = (page: Page, text: string): Locator => page.locator('.ant-message-notice-content').filter({ hasText: text }).last()

/** The messages shown under the items of a Formily form. */
export const fieldErrors = (form: Locator): Locator => form.locator('.ant-formily-item-error-help')

/** The 提示 confirmation (modal.confirm) that holds this text. */
export const confirmBox = (page: Page, text: string): Locator => page.locator('.ant-modal-confirm').filter({ hasText: text })

/** The open dropdown of an antd Select (its listbox carries the id the combobox controls; another may still be closing). */
async function dropdownOf(page: Page, box: Locator): Promise<Locator> {
  const listId = await box.getAttribute('aria-controls')
  return listId ? page.locator('.ant-select-dropdown').filter({ has: page.locator(`[id="${listId}"]`) }) : page.locator('.ant-select-dropdown:visible')
}

/** Picks an option of an antd Select by its visible text (antd's role=option nodes are hidden). */
export async function chooseOption(page: Page, scope: Locator, label: string, option: string): Promise<void> {
  const box = scope.getByRole('combobox', { name: label, exact: true })
  await box.click()
  const dropdown = await dropdownOf(page, box)
  await dropdown.locator('.ant-select-item-option', { hasText: option }).first().click()
  await expect(dropdown).toBeHidden()
}

/** The antd table a row belongs to (its header may sit in a table of its own when the header is fixed). */
const tableOf = (row: Locator): Locator => row.locator('xpath=ancestor::div[contains(concat(" ", normalize-space(@class), " "), " ant-table ")][1]')

/** The cell of a table row under the column of this title (found by the header text, so no fixed index). */
export async function cellOf(row: Locator, title: string): Promise<Locator> {
  await expect(row).toHaveCount(1)
  const headers = (await tableOf(row).locator('thead th').allInnerTexts()).map((t) => t.trim())
  const at = headers.indexOf(title)
  if (at < 0) throw new Error(`no column ${title} among ${JSON.stringify(headers)}`)
  return row.locator(':scope > td').nth(at)
}

/** Checks cells of one row exactly, by column title: `{ 库存数量: '3', 含税成本价: '2.500000' }`. */
export async function expectCells(row: Locator, cells: Record<string, string>): Promise<void> {
  for (const [title, text] of Object.entries(cells)) await expect(await cellOf(row, title), title).toHaveText(text)
}

/** The rows of a table that have a cell with exactly each of these texts. */
export const rowWithCells = (scope: Locator, ...texts: string[]): Locator => {
  let rows = scope.locator('.ant-table-row')
  for (const t of texts) rows = rows.filter({ has: scope.page().getByRole('cell', { name: t, exact: true }) })
  return rows
}

/**
 * 库存 → 商品库存 of one product in one warehouse, searched by the product code: the quantity, the
 * moving-average unit cost and the stock value must be exactly these (the row, then each cell).
 */
export async function expectStock(page: Page, product: { code: string }, sc: { name: string }, stock: { num: string; price: string; amount: string }): Promise<void> {
  const pane = await openScreen(page, '/stock/product')
  await pane.getByRole('textbox', { name: '商品编号', exact: true }).fill(product.code)
  await pane.getByRole('button', { name: '查询' }).click()
  const row = rowWithCells(pane, product.code, sc.name)
  await expect(row).toHaveCount(1)
  await expectCells(row, { 库存数量: stock.num, 含税成本价: stock.price, 含税成本金额: stock.amount })
}

/** The data entity of a table, synced for the test (or already synced by another spec of the same run). */
export async function syncEntity(api: AdminApi, tableName: string, name: string): Promise<string> {
  try {
    return await api.post<string>('/gen/data/entity/sync/table', { tableName, name })
  } catch {
    const page = await api.get<{ datas: { id: string; tableName: string }[] }>('/gen/data/entity/query', { pageSize: 100 })
    return page.datas.find((d) => d.tableName === tableName)!.id
  }
}
