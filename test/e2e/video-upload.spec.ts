import { test, expect, openScreen, toast, uniqueSuffix } from './helpers.js'
import { VIDEO_RATES } from '../../src/shared/look/ui-constants.js'

/**
 * The video uploader and player (000 §7 POST /component/upload/video, §9 rates 0.7/1/1.5/2), reached as a
 * user reaches them: a custom form with a 视频 field, opened from its menu.
 */
test('a custom form\'s 视频 field uploads through /component/upload/video and plays at the spec\'s rates', async ({ page, api }) => {
  const s = uniqueSuffix()
  const formId = await api.post<string>('/gen/custom/form', {
    name: `视频表单${s}`,
    formConfig: JSON.stringify({ type: 'object', properties: { clip: { type: 'string', title: '宣传视频', 'x-decorator': 'FormItem', 'x-component': 'VideoUpload' } } }),
    isDialog: false,
    requireQuery: false,
    handleBean: 'echo',
  })
  const path = `/video${s.toLowerCase()}`
  await api.post('/system/menu', { code: `VM${s}`, title: `视频页${s}`, display: 1, componentType: 2, component: formId, path, hidden: true, available: true })
  const pane = await openScreen(page, path)
  const input = pane.locator('.video-upload input[type=file]')

  // Not a video format: refused in the browser with the spec's message, nothing is sent.
  await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a video') })
  await expect(toast(page, '只能上传avi、wmv、mpeg、mp4、m4v、mov、asf、flv、f4v、rmvb、rm、3gp、vob格式的视频！')).toBeVisible()
  await expect(pane.locator('video')).toHaveCount(0)

  const uploaded = page.waitForResponse((r) => r.url().endsWith('/cloud-api/component/upload/video') && r.request().method() === 'POST')
  await input.setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: Buffer.from('0000ftypisom', 'latin1') })
  const answer = (await (await uploaded).json()) as { code: number; data: string }
  expect(answer.code).toBe(200)
  const video = pane.locator('video')
  await expect(video).toHaveAttribute('src', answer.data)
  await expect(pane.getByRole('button', { name: '重新上传' })).toBeVisible()

  const rates = pane.getByLabel('播放速度')
  await expect(rates.locator('.ant-segmented-item')).toHaveText(VIDEO_RATES.map((r) => `${r}x`))
  for (const r of [1.5, 0.7, 2]) {
    await rates.locator('.ant-segmented-item').filter({ hasText: `${r}x` }).click()
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(r)
  }
  // The form standing on its page is the spec's content width (000 §9).
  const [own, room] = await pane.locator('[data-page-form]').evaluate((el) => [el.getBoundingClientRect().width, el.parentElement!.getBoundingClientRect().width])
  expect(Math.abs(own - room * 0.6)).toBeLessThanOrEqual(1)
})
