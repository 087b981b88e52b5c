import { expect, openScreen, test, topMenu } from './helpers.js'

/**
 * Everyday polish in the running shell at 1440 px: the modules that do not fit the header are under a
 * labelled 更多; long form labels are shown whole; an order list asks for its creator with the user
 * picker, never for an id.
 */

test('the header shows the modules that fit and the rest under 更多', async ({ page }) => {
  await openScreen(page, '/stock/product')
  const more = topMenu(page).locator('.ant-menu-overflow-item-rest:not([aria-hidden="true"])')
  await expect(more).toHaveText(/更多/)
  await more.hover()
  // The modules left out of the bar are listed in the popup.
  const popup = page.locator('.ant-menu-submenu-popup:visible')
  await expect(popup.getByRole('menuitem').first()).toBeVisible()
  await expect(popup).toContainText('库存管理')
})

test('a long form label is shown whole, not cut with …', async ({ page }) => {
  const pane = await openScreen(page, '/base-data/supplier')
  await pane.getByRole('button', { name: '新增', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: /^新增/ })
  const label = dialog.locator('label', { hasText: '统一社会信用代码' }).first()
  await expect(label).toBeVisible()
  const cut = await label.evaluate((el) => {
    const box = el.closest('.ant-formily-item-label') ?? el
    return [el, ...box.querySelectorAll('*')].some((n) => (n as HTMLElement).scrollWidth > (n as HTMLElement).clientWidth + 1)
  })
  expect(cut).toBe(false)
  await page.keyboard.press('Escape')
})

test('the order list filters its creator with the user picker', async ({ page }) => {
  const pane = await openScreen(page, '/purchase/order')
  await expect(pane.getByText('创建人ID')).toHaveCount(0)
  await pane.getByPlaceholder('请选择创建人').click()
  const picker = page.getByRole('dialog', { name: /^选择/ })
  await expect(picker).toBeVisible()
  await expect(picker.locator('.ant-table-row').filter({ hasText: 'admin' }).first()).toBeVisible()
})
