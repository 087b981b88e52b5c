import type { Locator, Page } from '@playwright/test'
import { test, expect, openScreen, rowOf, toast, uniqueSuffix, expectPicked } from './helpers.js'

/**
 * System notices and data dictionaries in the browser: publishing a notice with the rich-text
 * editor, the header bell picking it up and reading it, the 系统通知 page, unsafe HTML never running,
 * and a dictionary with its categories and items.
 */

interface Page_<T> {
  totalCount: number
  datas: T[]
}

/** The bell's poll interval (000 §9) plus some slack for a busy machine. */
const BELL_TIMEOUT = 9_000

const bell = (page: Page) => page.locator('button.notice-bell')
const bellPanel = (page: Page) => page.locator('.notice-bell-panel')
const viewer = (page: Page) => page.locator('.notice-viewer')

/** Records alert/confirm dialogs; the check answers what an injected script would have left behind. */
function guardScripts(page: Page) {
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  return async () => ({ dialogs, flag: await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss ?? null) })
}

/** Pastes HTML into a contenteditable the way the browser does (a paste event with clipboard data). */
async function pasteHtml(target: Locator, html: string, text: string) {
  await target.evaluate(
    (el, data) => {
      const transfer = new DataTransfer()
      transfer.setData('text/html', data.html)
      transfer.setData('text/plain', data.text)
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }))
    },
    { html, text },
  )
}

test('publish a notice with rich text; the bell shows it unread, reading it clears the badge', async ({ page, api }) => {
  const xss = guardScripts(page)
  const before = (await api.get<Page_<unknown>>('/system/notice/query/my', { pageIndex: 1, pageSize: 20, readed: false })).totalCount
  const title = `系统升级通知${uniqueSuffix()}`

  const pane = await openScreen(page, '/system/notice/publish')
  await expect(bell(page)).toHaveAttribute('data-unread', String(before))
  await pane.getByRole('button', { name: '新增' }).click()
  const form = page.locator('.ant-modal').filter({ hasText: '新增系统通知' })
  await form.getByLabel('标题', { exact: true }).fill(title)

  // The editor loads in its own chunk; type plain and bold text, then paste an image with a handler.
  const editor = form.getByRole('textbox', { name: '内容' })
  await expect(editor).toBeVisible()
  // Rich text height 500 (000 §9); layout size, not the box of the dialog's opening animation.
  expect(await form.locator('.notice-editor-body').evaluate((el) => (el as HTMLElement).offsetHeight)).toBe(500)
  await editor.click()
  await page.keyboard.type('今晚系统升级，')
  await form.getByRole('button', { name: '加粗' }).click()
  await page.keyboard.type('请提前保存数据')
  await form.getByRole('button', { name: '加粗' }).click()
  await pasteHtml(editor, '<p>。<img src=x onerror="window.__xss=1;alert(1)"><script>window.__xss=2</script></p>', '。')
  await expect(editor.locator('strong')).toHaveText('请提前保存数据')
  await expect(editor.locator('img')).toHaveCount(0)
  await form.getByRole('switch', { name: '是否发布' }).click()
  await form.getByRole('button', { name: '确定' }).click()
  await expect(toast(page, '新增成功')).toBeVisible()
  await expect(rowOf(pane, title)).toBeVisible()

  // The detail form shows the saved HTML, sanitised.
  await rowOf(pane, title).getByRole('button', { name: '详情' }).click()
  const detail = page.locator('.ant-modal').filter({ hasText: '系统通知详情' })
  await expect(detail.locator('.notice-html strong')).toHaveText('请提前保存数据')
  await detail.getByRole('button', { name: '取消' }).click()

  // The bell's next poll (every 5 s) finds the notice.
  await expect(bell(page)).toHaveAttribute('data-unread', String(before + 1), { timeout: BELL_TIMEOUT })
  await expect(bell(page).locator('.ant-badge-count')).toBeVisible()
  await bell(page).click()
  await expect(bellPanel(page).getByRole('tab', { name: /通知/ })).toHaveAttribute('aria-selected', 'true')
  // A click during the popover's opening animation can miss its tab: click until the tab is the active one.
  const openTab = async (name: string | RegExp) => {
    const tab = bellPanel(page).getByRole('tab', { name })
    await expect(async () => {
      await tab.click()
      await expect(tab).toHaveAttribute('aria-selected', 'true', { timeout: 1000 })
    }).toPass({ timeout: 10_000 })
  }
  await openTab('消息')
  await expect(bellPanel(page).getByText('暂无消息')).toBeVisible()
  // 待办 opens (other specs on the same server may have put reminders there, e.g. a memorial day).
  await openTab('待办')
  await expect(bellPanel(page).getByRole('tabpanel', { name: /待办/ })).toBeVisible()
  await openTab(/通知/)
  await bellPanel(page).getByRole('button', { name: new RegExp(title) }).click()

  // Reading it marks it read: the badge goes back down at once, no need to wait for the poll.
  await expect(viewer(page).locator('.ant-modal-title')).toHaveText(title)
  await expect(viewer(page).locator('.notice-viewer-content strong')).toHaveText('请提前保存数据')
  await expect(viewer(page).locator('.notice-viewer-content')).toContainText('今晚系统升级，')
  await expect(viewer(page).locator('img, script, [onerror]')).toHaveCount(0)
  await expect(bell(page)).toHaveAttribute('data-unread', String(before))
  await viewer(page).getByRole('button', { name: '关闭' }).click()
  await expect(viewer(page)).toBeHidden()

  // 查看更多 opens 系统通知 with the notice read.
  await bell(page).click()
  await bellPanel(page).getByRole('button', { name: '查看更多' }).click()
  await expect(page).toHaveURL(/\/system\/notice$/)
  const mine = page.locator('.shell-pane[data-page="/system/notice"]')
  await expect(rowOf(mine, title).locator('.ant-tag')).toHaveText('已读')
  expect(await xss()).toEqual({ dialogs: [], flag: null })
})

test('系统通知 filters by title and read state, and never runs HTML from the server', async ({ page, api }) => {
  const xss = guardScripts(page)
  const suffix = uniqueSuffix()
  const unsafe = `安全检查${suffix}`
  const other = `放假安排${suffix}`
  // Straight through the API, as another client might: the server filters it, the browser again.
  await api.post('/system/notice', {
    title: unsafe,
    published: true,
    content: `<p>正文<img src="x" onerror="window.__xss=1;alert(1)"><a href="javascript:window.__xss=2">链接</a></p><svg onload="window.__xss=3"></svg>`,
  })
  await api.post('/system/notice', { title: other, published: true, content: '<p>五一放假</p>' })

  const pane = await openScreen(page, '/system/notice')
  await expect(pane.locator('.notice-my-summary')).toContainText('未读通知')
  await pane.getByLabel('标题', { exact: true }).fill(suffix)
  await pane.getByRole('button', { name: '查询' }).click()
  await expect(pane.locator('.ant-table-row')).toHaveCount(2)
  await expect(rowOf(pane, unsafe).locator('.ant-tag')).toHaveText('未读')

  await rowOf(pane, unsafe).getByText(unsafe).click()
  const content = viewer(page).locator('.notice-viewer-content')
  await expect(content).toContainText('正文')
  await expect(content.locator('[onerror], [onload], svg, script')).toHaveCount(0)
  await expect(content.locator('a[href^="javascript"]')).toHaveCount(0)
  await viewer(page).getByRole('button', { name: '关闭' }).click()
  await expect(rowOf(pane, unsafe).locator('.ant-tag')).toHaveText('已读')

  // 状态 未读: only the one not opened yet.
  await pane.locator('.ant-select', { has: page.getByRole('combobox', { name: '状态' }) }).click()
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '未读' }).click()
  await pane.getByRole('button', { name: '查询' }).click()
  await expect(pane.locator('.ant-table-row')).toHaveCount(1)
  await expect(rowOf(pane, other)).toBeVisible()
  expect(await xss()).toEqual({ dialogs: [], flag: null })
})

test('数据字典: categories in a drawer, a dictionary and its two items', async ({ page, api }) => {
  const suffix = uniqueSuffix()
  const category = { code: `C${suffix}`, name: `分类${suffix.slice(-4)}` }
  const dic = { code: `D${suffix}`, name: `性别${suffix.slice(-4)}` }

  const pane = await openScreen(page, '/system/dic')

  // 分类管理: the category screen in a drawer.
  await pane.getByRole('button', { name: '分类管理' }).click()
  const drawer = page.getByRole('dialog', { name: '字典分类' })
  await drawer.getByRole('button', { name: '新增' }).click()
  const categoryForm = page.locator('.ant-modal').filter({ hasText: '新增数据字典分类' })
  await categoryForm.getByLabel('编号', { exact: true }).fill(category.code)
  await categoryForm.getByLabel('名称', { exact: true }).fill(category.name)
  await categoryForm.getByRole('button', { name: '确定' }).click()
  await expect(rowOf(drawer, category.code)).toBeVisible()
  await drawer.getByRole('button', { name: '关闭' }).click()
  await expect(drawer).toBeHidden()

  // A dictionary.
  await pane.getByRole('button', { name: '新增' }).click()
  const dicForm = page.locator('.ant-modal').filter({ hasText: '新增数据字典' })
  await dicForm.getByLabel('编号', { exact: true }).fill(dic.code)
  await dicForm.getByLabel('名称', { exact: true }).fill(dic.name)
  await dicForm.getByRole('button', { name: '确定' }).click()
  await expect(toast(page, '新增成功')).toBeVisible()

  // 字典值: the items of that dictionary only, added with the dictionary already chosen.
  await rowOf(pane, dic.code).getByRole('button', { name: '字典值' }).click()
  const items = page.locator('.dic-items-dialog')
  await expect(items.locator('.ant-modal-title')).toHaveText(`字典值 - ${dic.name}`)
  await expect(items.getByRole('columnheader', { name: '数据字典' })).toHaveCount(0)
  for (const [code, name, orderNo] of [
    ['M', '男', '1'],
    ['F', '女', '2'],
  ]) {
    await items.getByRole('button', { name: '新增' }).click()
    const itemForm = page.locator('.ant-modal').filter({ hasText: '新增数据字典值' })
    await expectPicked(itemForm.getByRole('textbox', { name: '数据字典' }), dic.code, dic.name)
    await itemForm.getByLabel('编号', { exact: true }).fill(code)
    await itemForm.getByLabel('名称', { exact: true }).fill(name)
    await itemForm.getByLabel('排序编号', { exact: true }).fill(orderNo)
    await itemForm.getByRole('button', { name: '确定' }).click()
    await expect(itemForm).toBeHidden()
  }
  await expect(items.locator('.ant-table-row')).toHaveCount(2)
  await expect(items.locator('.ant-table-row').nth(0)).toContainText('男')
  await expect(items.locator('.ant-table-row').nth(1)).toContainText('女')
  await items.getByRole('button', { name: '关闭' }).click()

  const stored = await api.get<{ code: string; name: string }[]>('/system/dic/item/bydic', { code: dic.code })
  expect(stored.map((i) => [i.code, i.name])).toEqual([
    ['M', '男'],
    ['F', '女'],
  ])
})
