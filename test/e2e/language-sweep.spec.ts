import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import type { MenuNode } from '../../src/shared/contracts/menu-node.js'
import { expect, openScreen, paneOf, switchLanguage, test } from './helpers.js'

/**
 * Issue 32 "Languages": in English no Han character, in 繁體中文 no Simplified-only character shows on
 * any menu page or on the dialog (or page) its 新增 opens, outside the data (table rows, data trees,
 * chosen values, detail values). Budget 0; a failure lists every page with the words it found.
 */

const menuPages = (nodes: MenuNode[]): { path: string; title: string }[] =>
  nodes.flatMap((n) => [
    ...(!n.hidden && n.display === 1 && n.path && !n.path.includes(':') && !/^https?:/i.test(n.path) ? [{ path: n.path, title: n.meta.title }] : []),
    ...(n.hidden ? [] : menuPages(n.children ?? [])),
  ])

const OPENED = '.ant-table, .ant-result, .ant-form, .ant-tree, .ant-empty, canvas, .ant-descriptions'

/**
 * Simplified characters that Traditional never writes: wherever a Simplified catalogue key and its
 * zh-HK text differ at a position (same length), the key's character, unless a zh-HK text uses it too.
 */
function simplifiedOnly(): string[] {
  const hk = JSON.parse(readFileSync(path.join(process.cwd(), 'src/shared/i18n/zh-HK.json'), 'utf8')) as Record<string, Record<string, string>>
  const pairs = Object.values(hk).flatMap((section) => Object.entries(section))
  const traditional = new Set(pairs.flatMap(([, v]) => [...v]))
  const out = new Set<string>()
  for (const [cn, tw] of pairs) {
    const a = [...cn]
    const b = [...tw]
    if (a.length !== b.length) continue
    a.forEach((c, i) => c !== b[i] && /\p{Script=Han}/u.test(c) && !traditional.has(c) && out.add(c))
  }
  return [...out]
}

/** Data a user typed or the seed holds, not words of the product: left out of the count. */
const DATA = [
  '.ant-table-tbody',
  '.ant-tree-title',
  '.ant-select-selection-item',
  '.ant-descriptions-item-content',
  '.shell-user-name',
  '.workplace-user-name',
  '[data-sweep="data"]',
].join(', ')

/** Every visible text of the page (and input placeholders) outside DATA in which `bad` finds characters. */
async function offending(page: Page, pattern: string): Promise<string[]> {
  return page.evaluate(
    ({ pattern, data }) => {
      const bad = new RegExp(pattern, 'u')
      const out = new Set<string>()
      const visible = (el: Element) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
      while (walker.nextNode()) {
        const node = walker.currentNode
        const el = node.parentElement
        const text = node.textContent?.trim() ?? ''
        if (!el || !text || !bad.test(text) || el.closest(data) || !visible(el)) continue
        out.add(text)
      }
      // A label cut short ("Expected a…") hides its words as surely as a missing translation.
      for (const el of document.querySelectorAll('.ant-form-item-label label, .ant-formily-item-label-content')) {
        const box = el as HTMLElement
        if (visible(el) && box.scrollWidth > box.clientWidth + 1) out.add(`cut: ${box.textContent?.trim() ?? ''}`)
      }
      for (const el of document.querySelectorAll('input[placeholder], textarea[placeholder]')) {
        const text = el.getAttribute('placeholder') ?? ''
        if (bad.test(text) && !el.closest(data) && visible(el)) out.add(text)
      }
      return [...out]
    },
    { pattern, data: DATA },
  )
}

async function settle(page: Page, scope = page.locator('body')): Promise<void> {
  await scope.locator(OPENED).first().waitFor({ state: 'visible', timeout: 15_000 }).catch(() => undefined)
  await expect(scope.locator('.ant-spin-spinning')).toHaveCount(0, { timeout: 15_000 }).catch(() => undefined)
}

async function closeTab(page: Page, key: string): Promise<void> {
  const close = page.locator(`.shell-tabs .ant-tabs-tab:has(.shell-tab-label[data-tab-key="${key}"]) .ant-tabs-tab-remove`)
  if (await close.count()) {
    await close.click()
    await expect(paneOf(page, key)).toHaveCount(0)
  }
}

/** Closes what 新增 opened: Esc, else its ×. */
async function closeDialogs(page: Page): Promise<void> {
  const open = page.locator('.ant-modal-wrap:visible')
  await expect(async () => {
    if ((await open.count()) === 0) return
    await page.keyboard.press('Escape')
    if (await open.count()) await open.last().locator('.ant-modal-close').click({ timeout: 2_000 })
    await expect(open).toHaveCount(0, { timeout: 2_000 })
  }).toPass({ timeout: 20_000 })
}

/** Opens every menu page, counts what `pattern` finds there and in what its 新增 opens; answers the finds by page. */
async function sweep(page: Page, pages: { path: string; title: string }[], pattern: string, add: string): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {}
  const note = (where: string, texts: string[]) => {
    if (texts.length) found[where] = texts
  }
  note('shell', await offending(page, pattern))
  for (const { path: to, title } of pages) {
    const pane = await openScreen(page, to)
    await settle(page, pane)
    note(`${title} ${to}`, await offending(page, pattern))
    const button = pane.getByRole('button', { name: add, exact: true }).first()
    if (await button.isVisible().catch(() => false)) {
      const before = new URL(page.url()).pathname
      await button.click()
      const dialog = page.locator('.ant-modal-wrap:visible .ant-modal').last()
      await expect(async () => {
        const moved = new URL(page.url()).pathname !== before
        expect(moved || (await dialog.isVisible())).toBe(true)
      }).toPass({ timeout: 15_000 })
      const after = new URL(page.url()).pathname
      if (after !== before) {
        await settle(page, paneOf(page, after))
        note(`${title} ${add} ${after}`, await offending(page, pattern))
        await closeTab(page, after)
        // The list is shown again before its own tab is closed (a close during that navigation reopens it).
        await expect(page).toHaveURL(new RegExp(`${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`))
      } else {
        await settle(page, dialog)
        note(`${title} ${add}`, await offending(page, pattern))
        await closeDialogs(page)
      }
    }
    await closeTab(page, to)
  }
  return found
}

for (const language of [
  { name: 'English', add: 'Add', pattern: '\\p{Script=Han}', what: 'Han characters' },
  { name: '繁體中文', add: '新增', pattern: '', what: 'Simplified-only characters' },
] as const) {
  test(`${language.name}: no ${language.what} on any menu page or its 新增`, async ({ page, api }) => {
    const pages = menuPages(await api.get<MenuNode[]>('/auth/menus'))
    expect(pages.length).toBeGreaterThan(80)
    test.setTimeout(120_000 + pages.length * 20_000)
    const pattern = language.pattern || `[${simplifiedOnly().join('')}]`
    await page.goto('/')
    await switchLanguage(page, language.name)
    const found = await sweep(page, pages, pattern, language.add)
    const count = (texts: string[]) => texts.join('').match(new RegExp(pattern, 'gu'))?.length ?? 0
    const report = Object.entries(found).map(([where, texts]) => `${where} (${count(texts)}): ${texts.join(' | ')}`)
    console.log(`${language.name}: ${Object.values(found).reduce((n, t) => n + count(t), 0)} ${language.what} on ${report.length} screens\n${report.join('\n')}`)
    expect(report).toEqual([])
  })
}
