import { expect, openScreen, test } from './helpers.js'

test('the custom form and custom page dialogs open their editors without page errors', async ({ page }) => {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  for (const [path, title, editor] of [
    ['/development/custom/form', '新增自定义表单', '.form-config-editor'],
    ['/development/custom/page', '新增自定义页面', '.lowcode-monaco'],
  ] as const) {
    const pane = await openScreen(page, path)
    await pane.getByRole('button', { name: '新增', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: title })
    await expect(dialog.locator(`${editor} .monaco-editor`).first()).toBeVisible({ timeout: 20_000 })
    await dialog.locator('.monaco-editor').first().click()
    await page.keyboard.type('return 1')
    await page.waitForTimeout(1500)
    await dialog.getByRole('button', { name: '取消', exact: true }).click()
  }
  expect(errors).toEqual([])
})
