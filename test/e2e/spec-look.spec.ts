import type { Page } from '@playwright/test'
import { test, expect, openScreen, paneOf, uniqueSuffix } from './helpers.js'
import { FORM_LOOK, ROUTE_ANIMATION, SPEC_COLORS, TABLE_HEIGHT, TABS_LOCK } from '../../src/shared/look/ui-constants.js'

/**
 * The look constants of the spec's §9 as a user sees them in a 1440×900 window: the error colour in the
 * three theme modes, the default table height (rows scroll inside the page, the pager stays in sight),
 * the content width of a page's form, the locked tab bar (fixed 200 ms after locking, right under the
 * header) and the page fade of the app settings.
 */

const SPEC_ERROR = 'rgb(245, 34, 47)'

test('the error colour is the spec\'s #f5222f in the light, dark and night themes', async ({ page }) => {
  for (const theme of ['light', 'dark', 'night'] as const) {
    await saveTheme(page, theme)
    // A page load reads the saved settings: the profile is loaded, not opened in the running shell (which
    // would keep the theme it started with, and whether it does depends on how fast its tabs come back).
    await page.goto('/profile')
    const pane = paneOf(page, '/profile')
    await expect(pane).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
    await pane.getByRole('tab', { name: '修改密码' }).click()
    await pane.locator('form').filter({ has: page.getByLabel('旧密码') }).getByRole('button', { name: '修改密码' }).click()
    const error = pane.locator('.ant-form-item-explain-error').filter({ hasText: '请输入旧密码' })
    await expect(error, theme).toHaveCSS('color', SPEC_ERROR)
  }
})

test('a list page at 1440×900: its rows scroll under the header row and the pager stays in sight', async ({ page, api }) => {
  const s = uniqueSuffix()
  // More rows than fit: a page of 20 at the list's row height is taller than the window.
  for (let i = 0; i < 21; i++) await api.post('/basedata/product/brand', { code: `TH${s}${i}`, name: `高度品牌${s}${i}` })
  const pane = await openScreen(page, '/product/brand')
  await expect(pane.locator('.ant-card').first().locator('form')).toBeVisible()
  const rows = pane.locator('.ant-table-body')
  await expect(pane.locator('.ant-table-row')).toHaveCount(20)
  // With a search card the rows give up the spec's 360 px, or more when more really stands around them.
  const maxHeight = await rows.evaluate((el) => parseFloat(getComputedStyle(el).maxHeight))
  expect(maxHeight).toBeLessThanOrEqual(900 - TABLE_HEIGHT.withSearch)
  expect(maxHeight).toBeGreaterThanOrEqual(TABLE_HEIGHT.minRows)
  expect(await rows.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true)
  // Nothing else scrolls: the pager is in the window without scrolling the page.
  expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeLessThanOrEqual(0)
  const pager = pane.locator('.ant-pagination').first()
  await expect(pager).toBeInViewport({ ratio: 1 })
  // The pager still answers: page 2 of the same rows.
  await pager.getByTitle('2', { exact: true }).click()
  await expect(pager.locator('.ant-pagination-item-active')).toHaveText('2')

  // A narrower window: the rows follow it and the pager stays in sight.
  await page.setViewportSize({ width: 1440, height: 700 })
  await expect.poll(() => rows.evaluate((el) => parseFloat(getComputedStyle(el).maxHeight))).toBeLessThanOrEqual(700 - TABLE_HEIGHT.withSearch)
  await expect(pane.locator('.ant-pagination').first()).toBeInViewport({ ratio: 1 })
})

test('a settings page\'s form is 60 % of the page content wide', async ({ page }) => {
  const pane = await openScreen(page, '/purchase/config')
  const form = pane.locator('[data-page-form]')
  await expect(form).toBeVisible()
  const [own, room] = await form.evaluate((el) => [el.getBoundingClientRect().width, el.parentElement!.getBoundingClientRect().width - parseFloat(getComputedStyle(el.parentElement!).paddingLeft) - parseFloat(getComputedStyle(el.parentElement!).paddingRight)])
  expect(FORM_LOOK.contentWidth).toBe('60%')
  expect(Math.abs(own - room * 0.6)).toBeLessThanOrEqual(1)
})

test.describe('with motion, as most systems are set', () => {
  test.use({ reducedMotion: 'no-preference' })

  test('the locked tab bar is fixed 200 ms after locking, right under the header; a shown page fades in', async ({ page }) => {
    const pane = await openScreen(page, '/dashboard/workplace')
    const bar = page.locator('.shell-tabs')
    await expect(bar).not.toHaveClass(/is-locked/)
    // The time from the lock's click (the event as the page receives it, before the app's handler starts
    // its delay) to the bar being fixed, taken in the page as the classes change: a busy machine can only
    // make it longer, never shorter.
    const waited = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const el = document.querySelector('.shell-tabs')!
          let pressed = 0
          document.addEventListener('click', (e) => void (pressed ||= e.timeStamp), { capture: true, once: true })
          new MutationObserver(() => {
            if (pressed && el.classList.contains('is-locked')) resolve(performance.now() - pressed)
          }).observe(el, { attributes: true })
        }),
    )
    await page.getByRole('button', { name: '锁定标签栏' }).click()
    expect(await waited).toBeGreaterThanOrEqual(TABS_LOCK.delayMs - 5)
    await expect(bar).toHaveCSS('position', 'sticky')

    // Under the header, never under it, while the page scrolls; the page starts at most 24 px below it.
    const header = page.locator('.shell-header')
    const gap = await pane.evaluate((el) => el.getBoundingClientRect().top - document.querySelector('.shell-tabs')!.getBoundingClientRect().bottom)
    expect(gap).toBeLessThanOrEqual(TABS_LOCK.pageGapMax)
    await page.setViewportSize({ width: 1440, height: 500 })
    await page.evaluate(() => window.scrollTo(0, 300))
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
    const headerBottom = await header.evaluate((el) => el.getBoundingClientRect().bottom)
    await expect.poll(() => bar.evaluate((el) => el.getBoundingClientRect().top)).toBe(headerBottom)
    await page.getByRole('button', { name: '解锁标签栏' }).click()
    await expect(bar).not.toHaveClass(/is-locked/)

    // App settings (001 §9): a page fades in when shown.
    const shown = paneOf(page, '/dashboard/workplace')
    await expect(shown).toHaveCSS('animation-name', ROUTE_ANIMATION.name)
    await expect(shown).toHaveCSS('animation-duration', `${ROUTE_ANIMATION.durationMs / 1000}s`)
  })

  test("antd's styles come from the build's static sheet: a list and its dialog make none at run time, and look as antd makes them", async ({ page }) => {
    await expectStaticAntdStyles(page)
    await expect(page.locator('link[rel="stylesheet"][href*="/assets/antd-full-"]')).toHaveCount(1)
    // The dark and night sheets are for the users who chose those themes: no one else downloads them.
    await expect(page.locator('link[href*="/assets/antd-dark-"], link[href*="/assets/antd-night-"]')).toHaveCount(0)
  })

  test("the dark and night themes have antd's styles from static sheets of their own", async ({ page }) => {
    for (const theme of ['dark', 'night'] as const) {
      await saveTheme(page, theme)
      // A page load reads the saved theme (the running shell keeps the one it started with).
      await page.goto('/dashboard/workplace')
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
      await expect(page.locator(`link[rel="stylesheet"][href*="/assets/antd-${theme}-full-"]`)).toHaveCount(1)
      const form = await openSupplierForm(page)
      expect(await antdStylesMadeAtRunTime(page), theme).toBe(0)
      // Dark, as that theme makes it: not the light dialog's white.
      await expect(form.locator('.ant-modal-content')).not.toHaveCSS('background-color', 'rgb(255, 255, 255)')
      await form.getByRole('button', { name: '取消', exact: true }).click()
    }
  })
})

test('a user who asked their system for less motion: pages show without the fade, dialogs open without their zoom', async ({ page }) => {
  // The run's browser asks for less motion (playwright.config.ts), as a user can in their system settings.
  expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(true)
  const pane = await openScreen(page, '/product/brand')
  await expect(pane).toHaveCSS('animation-name', 'none')
  // Every class the page's elements take while the dialog opens. With motion the zoom plays (ant-zoom-appear-active)
  // and the clicked button sends a wave (wave-motion-appear-active); without, rc-motion only passes its prepare step.
  const classes = page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const seen = new Set<string>()
        const note = (el: Element) => el.classList.forEach((c) => seen.add(c))
        new MutationObserver((records) => {
          for (const r of records) {
            if (r.target instanceof Element) note(r.target)
            r.addedNodes.forEach((n) => n instanceof Element && [n, ...n.querySelectorAll('*')].forEach(note))
          }
          if (document.querySelector('.ant-modal input')) setTimeout(() => resolve([...seen]), 400)
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] })
      }),
  )
  await pane.getByRole('button', { name: '新增', exact: true }).click()
  await expect(page.getByRole('dialog')).toBeVisible()
  const motion = (await classes).filter((c) => /-(appear|enter|leave)-(start|active)$/.test(c))
  expect(motion).toEqual([])
})

test("less motion has antd's styles from a static sheet of its own too", async ({ page }) => {
  await expectStaticAntdStyles(page)
  await expect(page.locator('link[rel="stylesheet"][href*="/assets/antd-reduced-"][media="(prefers-reduced-motion: reduce)"]')).toHaveCount(1)
})

/**
 * Opens 新增 of the supplier list and checks that antd made none of their styles at run time (each such
 * style goes into a <style> of its own, marked with its token's hash): they came from the build's static
 * sheet of the user's motion setting, and look as antd makes them.
 */
async function expectStaticAntdStyles(page: Page) {
  const form = await openSupplierForm(page)
  const pane = paneOf(page, '/base-data/supplier')
  expect(await antdStylesMadeAtRunTime(page)).toBe(0)
  const primary = SPEC_COLORS.colorPrimary.match(/[0-9a-f]{2}/gi)!.map((h) => parseInt(h, 16))
  await expect(form.getByRole('button', { name: '确定', exact: true })).toHaveCSS('background-color', `rgb(${primary.join(', ')})`)
  await expect(pane.locator('.ant-table-thead th').first()).toHaveCSS('background-color', 'rgb(250, 250, 250)')
  await expect(form.locator('.ant-modal-content')).toHaveCSS('border-radius', '8px')
}

/** 新增 of the supplier list, open. */
async function openSupplierForm(page: Page) {
  const pane = await openScreen(page, '/base-data/supplier')
  await pane.getByRole('button', { name: '新增', exact: true }).click()
  const form = page.getByRole('dialog', { name: '新增供应商' })
  await expect(form).toBeVisible()
  return form
}

/** The antd styles of a list and its dialog made at run time: each goes into a <style> of its own, marked with its token's hash. */
function antdStylesMadeAtRunTime(page: Page): Promise<number> {
  return page.evaluate(
    () => [...document.querySelectorAll('style[data-token-hash]')].filter((s) => /\.ant-(table|btn|modal|input|select|form|formily-item|pagination|tabs|menu)\b/.test(s.textContent ?? '')).length,
  )
}

/** Saves `theme` in the app settings of the browser, as 个人中心 does; the next page load reads it. */
async function saveTheme(page: Page, theme: 'light' | 'dark' | 'night') {
  await page.goto('/dashboard/workplace')
  await page.evaluate((t) => {
    const saved = JSON.parse(localStorage.getItem('admin.settings') ?? '{}') as Record<string, unknown>
    localStorage.setItem('admin.settings', JSON.stringify({ ...saved, theme: t }))
  }, theme)
}
