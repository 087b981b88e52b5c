import { expect, openScreen, test } from './helpers.js'
import type { Locator } from '@playwright/test'

/**
 * Every list takes its declared column widths fitted to the card at 1440 px (column-fit.ts), as line
 * tables do: a list that fits scrolls nowhere and fixes nothing; one whose declared widths cannot fit
 * keeps 操作 fixed on the right; a heading is never cut.
 */

const table = (pane: Locator) => pane.locator('.ant-table').first()
/** How far the rows scroll sideways (their own box when they scroll under a fixed header). */
const overflow = (pane: Locator) => table(pane).locator('.ant-table-body, .ant-table-content').first().evaluate((t) => t.scrollWidth - t.clientWidth)
const actionsHeading = (pane: Locator) => table(pane).locator('.ant-table-thead th').filter({ hasText: /^操作$/ })

/** Every heading's text is as wide as it is laid out at most (text cut with … is laid out wider than its cell). */
async function expectWholeHeadings(pane: Locator): Promise<void> {
  const cut = await table(pane)
    .locator('.ant-table-thead th')
    .evaluateAll((all) =>
      all
        .filter((th) => {
          const title = (th.querySelector('.ant-table-column-title') ?? th) as HTMLElement
          const range = document.createRange()
          range.selectNodeContents(title)
          const style = getComputedStyle(title)
          const room = title.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
          return range.getBoundingClientRect().width > room + 1
        })
        .map((th) => th.textContent),
    )
  expect(cut).toEqual([])
}

test('a list that fits its card fixes no column and scrolls nowhere', async ({ page }) => {
  const pane = await openScreen(page, '/product/brand')
  await expect(actionsHeading(pane)).toBeVisible()
  expect(await overflow(pane)).toBeLessThanOrEqual(0)
  await expect(table(pane).locator('.ant-table-cell-fix-right, .ant-table-cell-fix-left')).toHaveCount(0)
  await expectWholeHeadings(pane)
})

test('a list wider than its card keeps 序号 left and 操作 right, headings whole', async ({ page }) => {
  const pane = await openScreen(page, '/system/user')
  await expect(actionsHeading(pane)).toBeVisible()
  expect(await overflow(pane)).toBeGreaterThan(0)
  await expect(actionsHeading(pane)).toHaveClass(/ant-table-cell-fix-right/)
  await expect(table(pane).locator('.ant-table-thead th').filter({ hasText: /^序号$/ })).toHaveClass(/ant-table-cell-fix-left/)
  await expectWholeHeadings(pane)
})
