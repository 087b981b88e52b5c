import { expect, openScreen, paneOf, test } from './helpers.js'

/**
 * A reload with several tabs open: the tabs come back, but only the visible one loads; the others load
 * when they are chosen (issue 33: F5 with 12 tabs made about 20 calls and took 5 s).
 */
const SCREENS = ['/system/dept', '/system/position', '/base-data/pay-type', '/base-data/customer']
const rowsOf = (path: string) => `.shell-pane[data-page="${path}"] :is(.ant-table-row, .ant-empty)`

test('after a reload only the visible tab loads; another loads when it is chosen', async ({ page }) => {
  await page.goto('/')
  for (const path of SCREENS) {
    await openScreen(page, path)
    await expect(page.locator(rowsOf(path)).first()).toBeVisible()
  }
  const visible = SCREENS[SCREENS.length - 1]
  const lists: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname.startsWith('/cloud-api/') && url.pathname.endsWith('/query')) lists.push(url.pathname)
  })

  await page.reload()
  await expect(page.locator(rowsOf(visible)).first()).toBeVisible()
  for (const path of SCREENS) await expect(page.locator(`.shell-tab-label[data-tab-key="${path}"]`)).toBeVisible()
  await expect(page.locator('.shell-pane')).toHaveCount(1)
  expect(lists.length).toBeGreaterThan(0)
  // The visible list's and the header bell's (the message bus), none of the hidden tabs'.
  expect(lists.filter((p) => !p.includes('customer') && !p.startsWith('/cloud-api/message/'))).toEqual([])

  await page.locator(`.shell-tab-label[data-tab-key="${SCREENS[0]}"]`).click()
  await expect(page.locator(rowsOf(SCREENS[0])).first()).toBeVisible()
  await expect(paneOf(page, visible)).toBeHidden()
  await expect(page.locator('.shell-pane')).toHaveCount(2)
})
