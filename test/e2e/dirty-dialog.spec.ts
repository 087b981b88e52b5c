import { expect, openScreen, test, uniqueSuffix } from './helpers.js'
import type { Page } from '@playwright/test'

/**
 * A dialog with unsaved input asks before Esc or the close icon throw it away (a filled 新增菜单 was
 * lost): the runtime's dialog frame, here on the menu form and a document's 审核拒绝 reason.
 */

const question = (page: Page) => page.locator('.ant-modal-confirm').filter({ hasText: '有未保存的内容，确定关闭吗？' })

test('新增菜单: Esc and × on typed input ask; 取消 keeps the input, 确定 discards; an untouched dialog closes at once', async ({ page }) => {
  const pane = await openScreen(page, '/system/menu')
  const title = `脏表单${uniqueSuffix()}`

  // Untouched: Esc closes without asking.
  await pane.getByRole('button', { name: '新增', exact: true }).click()
  let dialog = page.getByRole('dialog', { name: '新增菜单' })
  await expect(dialog).toBeVisible()
  // The focus moved into the dialog as it opened (to its first text field): Esc right after 新增 closes it.
  await expect(dialog.locator('input:focus')).toHaveCount(1)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(question(page)).toHaveCount(0)

  // Typed: Esc asks; 取消 keeps the dialog and what was typed.
  await pane.getByRole('button', { name: '新增', exact: true }).click()
  dialog = page.getByRole('dialog', { name: '新增菜单' })
  const name = dialog.getByRole('textbox', { name: '名称', exact: true })
  await name.fill(title)
  await page.keyboard.press('Escape')
  await expect(question(page)).toBeVisible()
  await question(page).getByRole('button', { name: '取消' }).click()
  await expect(question(page)).toBeHidden()
  await expect(dialog).toBeVisible()
  await expect(name).toHaveValue(title)

  // The close icon asks too; 确定 discards.
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(question(page)).toBeVisible()
  await question(page).getByRole('button', { name: '确定' }).click()
  await expect(dialog).toBeHidden()

  // Reopened, it starts clean: Esc closes at once.
  await pane.getByRole('button', { name: '新增', exact: true }).click()
  await expect(page.getByRole('dialog', { name: '新增菜单' }).getByRole('textbox', { name: '名称', exact: true })).toHaveValue('')
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog', { name: '新增菜单' })).toBeHidden()
  await expect(question(page)).toHaveCount(0)
})
