import { test, expect, openScreen, toast } from './helpers.js'

/**
 * 备份管理 (系统管理) in the browser: 立即备份 starts a backup, the list follows it until it is written
 * (备份完成) and shows it first with its database and size; 下载 saves the archive under its own name.
 */
test('备份管理: back up now, see it listed, download it', async ({ page }) => {
  const pane = await openScreen(page, '/system/backup')
  const rows = pane.locator('.ant-table-row')
  await expect(pane.getByRole('button', { name: '立即备份' })).toBeVisible()
  const before = await rows.count()
  await pane.getByRole('button', { name: '立即备份' }).click()
  await expect(toast(page, '备份已开始，完成后显示在列表中')).toBeVisible()
  await expect(toast(page, '备份完成')).toBeVisible({ timeout: 60_000 })
  await expect(rows).toHaveCount(before + 1)
  const newest = rows.first()
  await expect(newest).toContainText(/SQLite|PostgreSQL/)
  await expect(newest).toContainText(/\d+ KB|\d+\.\d MB/)
  const [download] = await Promise.all([page.waitForEvent('download'), newest.getByRole('button', { name: '下载' }).click()])
  expect(download.suggestedFilename()).toMatch(/^backup-\d{8}-\d{6}-\d{3}-(sqlite|postgres)\.tar\.gz$/)
  await expect(newest).toContainText(download.suggestedFilename())
})
