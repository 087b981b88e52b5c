import type { Locator, Page } from '@playwright/test'
import { test, expect, openScreen, rowOf, toast, uniqueSuffix } from './helpers.js'

/**
 * 定时器管理 in the browser: the cron picker opens on every day at 00:00:00, refuses an empty 指定, builds
 * `0 0/5 * * * ?` from its tabs, shows the seven fields and the next five fire times, reads the expression
 * back when it opens again and from a pasted one (反解析到UI); a job created with it is scheduled, runs at
 * once on 立即执行 (its 上次执行时间 shows the run) and offers 暂停 or 恢复 by its state.
 */

interface Page_<T> {
  totalCount: number
  datas: T[]
}
interface Job {
  id: string
  name: string
  cron: string
  state: string
  nextFireTime: string
}

const cronModal = (page: Page) => page.getByRole('dialog', { name: 'Cron表达式' })
const tabPanel = (modal: Locator) => modal.locator('.ant-tabs-tabpane-active')
/** The n-th mode of the active tab (its radio circle: the label also holds inputs). */
const mode = (modal: Locator, n: number) => tabPanel(modal).locator('.ant-radio-wrapper').nth(n)

test('build 0 0/5 * * * ? in the cron modal, read it back, and create a job with it', async ({ page, api }) => {
  const name = `五分钟任务${uniqueSuffix()}`
  const pane = await openScreen(page, '/development/qrtz')
  await pane.getByRole('button', { name: '新增' }).click()
  const form = page.locator('.ant-modal').filter({ hasText: '新增定时器' })
  await form.getByLabel('名称', { exact: true }).fill(name)

  const cronInput = form.getByRole('textbox', { name: 'Cron表达式' })
  await expect(cronInput).toHaveAttribute('readonly', '')
  await cronInput.click()
  const modal = cronModal(page)
  await expect(modal).toBeVisible()
  // layout width, not the box of the opening animation
  expect(await modal.evaluate((el) => (el as HTMLElement).offsetWidth)).toBe(1000)
  await expect(modal.getByRole('tab')).toHaveText(['秒', '分', '时', '天', '月', '年'])
  // defaults: every day at 00:00:00 (not every second)
  await expect(modal.getByTestId('cron-expression')).toHaveText('0 0 0 * * ?')

  // 秒: the 指定 select opens on a mouse click although it sits in the radio's label, and takes 30
  // the one multiple select of the tab
  const seconds = tabPanel(modal).locator('.ant-select-multiple')
  await seconds.click()
  await page.keyboard.type('30')
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="30"]').click()
  await expect(modal.getByTestId('cron-expression')).toHaveText('0,30 0 0 * * ?')
  await page.keyboard.press('Escape')
  // left empty, 指定 says why and OK is refused (it never silently means every second)
  await seconds.locator('.ant-select-selection-item-remove').first().click()
  await seconds.locator('.ant-select-selection-item-remove').first().click()
  await expect(modal.getByText('请至少选择一个秒')).toBeVisible()
  await expect(modal.getByRole('button', { name: '确定' })).toBeDisabled()
  await seconds.click()
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="0"]').click()
  await page.keyboard.press('Escape')
  await expect(modal.getByText('请至少选择一个秒')).toBeHidden()
  await expect(modal.getByTestId('cron-expression')).toHaveText('0 0 0 * * ?')
  // 时: every hour
  await modal.getByRole('tab', { name: '时' }).click()
  await mode(modal, 0).locator('.ant-radio').click()
  await expect(modal.getByTestId('cron-expression')).toHaveText('0 0 * * * ?')
  // 分: from minute 0 every 5 minutes
  await modal.getByRole('tab', { name: '分' }).click()
  await mode(modal, 1).locator('.ant-radio').click()
  await tabPanel(modal).getByRole('spinbutton', { name: '分钟开始' }).fill('0')
  await tabPanel(modal).getByRole('spinbutton', { name: '分钟间隔' }).fill('5')
  await expect(modal.getByTestId('cron-expression')).toHaveText('0 0/5 * * * ?')
  // the seven fields and the next five fire times, five minutes apart
  await expect(modal.locator('.cron-fields tbody td')).toHaveText(['0', '0/5', '*', '*', '*', '?', '*'])
  const times = modal.locator('.cron-next-times li')
  await expect(times).toHaveCount(5)
  const stamps = (await times.allTextContents()).map((s) => new Date(s.replace(' ', 'T')).getTime())
  for (let i = 1; i < 5; i++) expect(stamps[i] - stamps[i - 1]).toBe(5 * 60_000)
  await modal.getByRole('button', { name: '确定' }).click()
  await expect(modal).toBeHidden()
  await expect(cronInput).toHaveValue('0 0/5 * * * ?')

  // opening again parses the expression into the tabs
  await cronInput.click()
  await expect(cronModal(page).getByTestId('cron-expression')).toHaveText('0 0/5 * * * ?')
  await cronModal(page).getByRole('tab', { name: '分' }).click()
  await expect(mode(cronModal(page), 1).locator('input[type=radio]')).toBeChecked()
  await expect(tabPanel(cronModal(page)).getByRole('spinbutton', { name: '分钟间隔' })).toHaveValue('5')
  // 反解析到UI: a pasted expression fills the tabs; 关闭 keeps the field as it was
  await cronModal(page).getByRole('textbox', { name: 'Cron表达式' }).fill('0 15 10 L * ?')
  await cronModal(page).getByRole('button', { name: '反解析到UI' }).click()
  await expect(cronModal(page).getByTestId('cron-expression')).toHaveText('0 15 10 L * ?')
  await cronModal(page).getByRole('tab', { name: '天' }).click()
  await expect(tabPanel(cronModal(page)).getByRole('radio', { name: '本月最后一天', exact: true })).toBeChecked()
  await cronModal(page).getByRole('button', { name: '关闭' }).click()
  await expect(cronInput).toHaveValue('0 0/5 * * * ?')

  await form.getByRole('radio', { name: 'JavaScript脚本' }).check()
  await form.getByLabel('脚本（JavaScript）').fill('return "已执行" + job.name')
  await form.getByRole('button', { name: '确定' }).click()
  await expect(toast(page, '新增成功')).toBeVisible()
  const row = rowOf(pane, name)
  await expect(row).toBeVisible()
  await expect(row).toContainText('0 0/5 * * * ?')
  await expect(row).toContainText('等待执行')

  const saved = (await api.get<Page_<Job>>('/qrtz/query', { pageIndex: 1, pageSize: 20, name })).datas
  expect(saved).toHaveLength(1)
  expect(saved[0]).toMatchObject({ cron: '0 0/5 * * * ?', state: 'WAITING' })
  expect(Number(saved[0].nextFireTime.slice(14, 16)) % 5).toBe(0)

  // a waiting job offers 暂停, not 恢复
  await expect(row.getByRole('button', { name: '暂停' })).toBeVisible()
  await expect(row.getByRole('button', { name: '恢复' })).toHaveCount(0)

  // 立即执行 runs it now and is its 上次执行时间; 执行记录 lists the run
  await row.getByRole('button', { name: '立即执行' }).click()
  await expect(toast(page, `执行成功：已执行${name}`)).toBeVisible()
  const ran = (await api.get<Page_<Job & { prevFireTime: string }>>('/qrtz/query', { pageIndex: 1, pageSize: 20, name })).datas[0]
  expect(ran.prevFireTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  await expect(row).toContainText(ran.prevFireTime)
  // paused, it offers 恢复 and no longer 暂停
  await row.getByRole('button', { name: '暂停' }).click()
  await expect(toast(page, '已暂停')).toBeVisible()
  await expect(row.getByRole('button', { name: '恢复' })).toBeVisible()
  await expect(row.getByRole('button', { name: '暂停' })).toHaveCount(0)
  await row.getByRole('button', { name: '执行记录' }).click()
  const runs = page.locator('.qrtz-runs-dialog')
  await expect(runs.locator('.ant-table-row')).toHaveCount(1)
  await expect(runs.locator('.ant-table-row').first()).toContainText('立即执行')
  await expect(runs.locator('.ant-table-row').first()).toContainText('成功')
})
