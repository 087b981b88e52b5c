import type { MenuNode } from '../../src/shared/contracts/menu-node.js'
import { expect, openScreen, test } from './helpers.js'

/** Every visible function menu with a plain path (no `:param`, no external link), as the side menu offers it. */
const menuPages = (nodes: MenuNode[]): { path: string; title: string }[] =>
  nodes.flatMap((n) => [
    ...(!n.hidden && n.display === 1 && n.path && !n.path.includes(':') && !/^https?:/i.test(n.path) ? [{ path: n.path, title: n.meta.title }] : []),
    ...(n.hidden ? [] : menuPages(n.children ?? [])),
  ])

/** What a page shows once it has opened: a list, a form, a tree, a chart, an empty state or a result page. */
const OPENED = '.ant-table, .ant-result, .ant-form, .ant-tree, .ant-empty, canvas, .ant-descriptions'

/**
 * Issue 27 "The admin is refused a page": the admin opens every page of the menu tree, one after another
 * in the running shell, and none shows the 403 result (抱歉，您无权访问此页面), in the whole page or in a
 * part of it (纪念日提醒 showed it in its list part).
 */
test('the admin opens every menu page and no page or part of one shows 403', async ({ page, api }) => {
  const pages = menuPages(await api.get<MenuNode[]>('/auth/menus'))
  expect(pages.length).toBeGreaterThan(80)
  test.setTimeout(60_000 + pages.length * 15_000)
  await page.goto('/')
  const refused: string[] = []
  for (const { path, title } of pages) {
    const pane = await openScreen(page, path)
    // Waits for the page's content, then for its lazy parts and first rows (no spinner left).
    await pane.locator(OPENED).first().waitFor({ state: 'visible', timeout: 15_000 }).catch(() => undefined)
    await expect(pane.locator('.ant-spin-spinning')).toHaveCount(0, { timeout: 15_000 }).catch(() => undefined)
    if ((await pane.locator('.ant-result-403').count()) > 0 || (await pane.getByText('抱歉，您无权访问此页面').count()) > 0) refused.push(`${title} ${path}`)
    // Its tab is closed again: every open tab stays mounted, and eighty of them slowed each next page.
    const close = page.locator(`.shell-tabs .ant-tabs-tab:has(.shell-tab-label[data-tab-key="${path}"]) .ant-tabs-tab-remove`)
    if (await close.count()) {
      await close.click()
      await expect(pane).toHaveCount(0)
    }
  }
  expect(refused).toEqual([])
})
