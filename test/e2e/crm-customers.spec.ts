import { chooseOption, confirmBox, expect, openScreen, paneOf, roleWithKeys, rowOf, signIn, test, toast, uniqueSuffix, userInRole, type AdminApi } from './helpers.js'

/** Another salesperson: a user whose role holds the public sea's keys. */
async function colleague(api: AdminApi, s: string) {
  const roleId = await roleWithKeys(api, { code: `SEA${s}`, name: `公海销售${s}` }, ['crm:customer:query', 'crm:public-sea:query', 'crm:public-sea:claim'])
  return userInRole(api, roleId, { username: `sea${s}`.toLowerCase(), name: `王销售${s}` })
}

/**
 * A salesperson's day with the customer screens: add a customer (it becomes theirs), log a follow-up on
 * its page, release it to the public sea with a reason; another salesperson claims it from 公海客户; the
 * owner history shows both; the H5 customer page fits a 375 px phone.
 */
test('customer, follow-up, release to the sea, another salesperson claims it, owner history and the H5 page', async ({ page, browser, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  const other = await colleague(api, s)
  const code = `CRM${s}`
  const name = `华南精工${code.slice(-4)}`

  const list = await openScreen(page, '/crm/customer')
  await list.getByRole('button', { name: '新增客户' }).click()
  const form = paneOf(page, '/crm/customer/add')
  await expect(form).toBeVisible()
  // The code comes proposed from the numbering rule (系统管理 › 编号规则); cleared, it is asked for.
  const codeInput = form.getByLabel('编号', { exact: true })
  await expect(codeInput).toHaveValue(/^KH\d{12}$/)
  await codeInput.fill('')
  await form.getByRole('button', { name: '保存' }).click()
  await expect(form.getByText('请输入编号')).toBeVisible()
  await codeInput.fill(code)
  await form.getByLabel('名称', { exact: true }).fill(name)
  await form.getByLabel('联系人', { exact: true }).fill('李经理')
  // 所属行业 and 客户来源 offer the items of their data dictionaries.
  await chooseOption(page, form, '所属行业', '制造业')
  await chooseOption(page, form, '客户来源', '展会活动')
  await form.getByRole('button', { name: '保存' }).click()
  await expect(toast(page, '新增成功')).toBeVisible()
  await expect(page).toHaveURL(/\/crm\/customer\/detail\//)
  const detailPath = new URL(page.url()).pathname
  expect(await api.get<{ industry: string; source: string }>('/basedata/customer', { id: detailPath.split('/').pop()! })).toMatchObject({ industry: '制造业', source: '展会活动' })
  const detail = paneOf(page, detailPath)
  await expect(detail.getByText(name).first()).toBeVisible()

  await detail.getByRole('button', { name: '写跟进' }).click()
  const dialog = page.getByRole('dialog', { name: '写跟进' })
  await dialog.getByLabel('跟进内容', { exact: true }).fill('电话沟通，客户计划下月采购一批数控刀具')
  // A date typed into a date-time box counts (at 00:00:00) once the box is left, in the usual formats;
  // text that is no date says so.
  const nextTime = dialog.getByLabel('下次跟进时间', { exact: true })
  await nextTime.click()
  await nextTime.pressSequentially('下周')
  await nextTime.press('Tab')
  await expect(toast(page, '无法识别的日期“下周”，请按 2026-12-05 的格式输入')).toBeVisible()
  await nextTime.click()
  await nextTime.fill('2026/12/05')
  await nextTime.press('Tab')
  await expect(nextTime).toHaveValue('2026-12-05 00:00:00')
  await dialog.getByRole('button', { name: '保存' }).click()
  await expect(toast(page, '跟进记录已保存')).toBeVisible()
  const saved = await api.get<{ datas: { content: string; nextTime: string | null }[] }>('/crm/action/query', { customerId: detailPath.split('/').pop()!, pageIndex: 1, pageSize: 10 })
  expect(saved.datas.find((a) => a.content.startsWith('电话沟通'))?.nextTime).toBe('2026-12-05 00:00:00')
  await expect(detail.getByText('电话沟通，客户计划下月采购一批数控刀具')).toBeVisible()

  await detail.getByRole('button', { name: '放入公海' }).click()
  const release = page.getByRole('dialog', { name: /放入公海/ })
  await release.getByRole('button', { name: '确 定' }).or(release.getByRole('button', { name: '确定' })).click()
  await expect(release.getByText('请输入放入公海的原因')).toBeVisible()
  await release.getByLabel('放入公海原因').fill('客户预算冻结')
  // Esc asks before it throws the typed reason away; kept, the dialog stays with the text.
  await page.keyboard.press('Escape')
  const discard = confirmBox(page, '有未保存的内容，确定关闭吗？')
  await expect(discard).toBeVisible()
  await discard.getByRole('button', { name: /取\s*消/ }).click()
  await expect(discard).toBeHidden()
  await expect(release.getByLabel('放入公海原因')).toHaveValue('客户预算冻结')
  await release.getByRole('button', { name: '确 定' }).or(release.getByRole('button', { name: '确定' })).click()
  await expect(toast(page, '已放入公海')).toBeVisible()
  // The released customer names its sea: its pool's name, or the company-wide sea when no pool covers it.
  const released = await api.get<{ poolId: string | null; poolName?: string | null }>('/basedata/customer', { id: detailPath.split('/').pop()! })
  const poolCell = detail.locator('xpath=.//th[normalize-space(.)="所属公海"]/following-sibling::td[1]')
  await expect(poolCell).toHaveText(released.poolId ? (released.poolName ?? '') : '全公司公海')
  await expect(poolCell).not.toHaveText('')

  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } })
  try {
    const otherPage = await context.newPage()
    await signIn(otherPage, other.username, other.password)
    const sea = await openScreen(otherPage, '/crm/public-sea')
    const row = rowOf(sea, name)
    await expect(row).toBeVisible()
    await row.getByText('领取').click()
    await expect(toast(otherPage, '已领取1个客户')).toBeVisible()
    await expect(rowOf(sea, name)).toHaveCount(0)
  } finally {
    await context.close()
  }

  const h5Path = detailPath.replace('/detail/', '/h5/detail/')
  await page.setViewportSize({ width: 375, height: 740 })
  const h5 = await openScreen(page, h5Path)
  await expect(h5.getByText(name).first()).toBeVisible()
  await expect(h5.getByRole('button', { name: '写跟进' })).toBeVisible()
  // The page itself fits the phone: its cards and the button end inside the 375 px viewport.
  for (const box of [await h5.locator('.ant-card').first().boundingBox(), await h5.getByRole('button', { name: '写跟进' }).boundingBox()]) {
    expect(box).not.toBeNull()
    expect(box!.x).toBeGreaterThanOrEqual(0)
    expect(box!.x + box!.width).toBeLessThanOrEqual(375)
  }

  await page.setViewportSize({ width: 1440, height: 900 })
  const back = await openScreen(page, detailPath)
  await back.getByRole('tab', { name: '负责人变更' }).click()
  await expect(back.getByText('客户预算冻结')).toBeVisible()
  await expect(back.getByRole('cell', { name: '领取' })).toBeVisible()
  await expect(back.getByRole('cell', { name: other.name }).first()).toBeVisible()

  const rules = await openScreen(page, '/crm/public-sea/rule')
  await expect(rules.getByText('每人拥有客户上限')).toBeVisible()
  await rules.getByRole('tab', { name: '自动回收规则' }).click()
  await expect(rules.getByRole('button', { name: '新增' }).first()).toBeVisible()
  await rules.getByRole('button', { name: '立即执行回收' }).click()
  await expect(page.locator('.ant-message-notice-content').filter({ hasText: /自动回收完成/ })).toBeVisible()
})
