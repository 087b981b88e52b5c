import { expect, openScreen, rowOf, test, toast, uniqueSuffix } from './helpers.js'

/** A 1×1 PNG: the smallest real image the logo upload accepts. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64')

test('a pay type logo goes to the upload call and the form keeps its URL', async ({ page }) => {
  test.setTimeout(60_000)
  const code = `PT${uniqueSuffix()}`
  const pane = await openScreen(page, '/entity/payType')
  await pane.getByRole('button', { name: '新增', exact: true }).click()
  const form = page.getByRole('dialog', { name: '新增支付方式' })
  await form.getByRole('textbox', { name: '编号', exact: true }).fill(code)
  await form.getByRole('textbox', { name: '名称', exact: true }).fill(`银联${code}`)

  const wrong = form.locator('input[type=file]')
  await wrong.setInputFiles({ name: 'logo.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') })
  await expect(toast(page, '只能上传png、jpeg、bmp、jpg、gif格式的图片')).toBeVisible()

  const uploaded = page.waitForResponse((r) => r.url().includes('/basedata/paytype/upload/logo') && r.status() === 200)
  await form.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG })
  await uploaded
  await expect(form.locator('.ant-upload-list-item img')).toHaveAttribute('src', /\/cloud-api\/basedata\/paytype\/logo\//)
  await form.getByRole('button', { name: '确定', exact: true }).click()
  await expect(toast(page, '新增成功！')).toBeVisible()

  const logo = await page.evaluate(async (c) => {
    const token = localStorage.getItem('X-Auth-Token') ?? ''
    const r = await fetch(`/cloud-api/basedata/paytype/query?code=${c}`, { headers: { 'X-Auth-Token': token } })
    return ((await r.json()) as { data: { datas: { logo: string }[] } }).data.datas[0].logo
  }, code)
  expect(logo).toMatch(/^\/cloud-api\/basedata\/paytype\/logo\/1000\/logo-[0-9a-f]{32}\.png$/)
  const image = await page.request.get(logo)
  expect(image.headers()['content-type']).toContain('image/png')
  await expect(rowOf(pane, code)).toBeVisible()
})
