import type { Browser, Page } from '@playwright/test'
import { expect, signIn, test, uniqueSuffix } from './helpers.js'

/**
 * The realtime bus in two browsers: two users of the tenant, each in a context of their own, see each
 * other come online and go offline as a notification at the bottom right (name, IP and time) that goes
 * away after 2 seconds (000 §2). Fresh users, so no other spec's sessions change who is "first online".
 */
const presence = (page: Page, text: string) => page.locator('.ant-notification-bottomRight .ant-notification-notice').filter({ hasText: text })

async function signedIn(browser: Browser, username: string): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } })
  const page = await context.newPage()
  await signIn(page, username, 'secret123')
  return page
}

test('two users see each other come online and go offline, bottom right, for 2 seconds', async ({ browser, api }) => {
  const suffix = uniqueSuffix()
  const users = [`bus甲${suffix}`, `bus乙${suffix}`]
  const logins = [`busa${suffix}`.toLowerCase(), `busb${suffix}`.toLowerCase()]
  for (const [i, name] of users.entries())
    await api.post('/system/user', { code: `BUS${i}${suffix}`.slice(0, 20), name, username: logins[i], password: 'secret123', gender: 0, available: true })

  const first = await signedIn(browser, logins[0])
  // The first user's bus is up once the shell shows; the second signing in is then news to them.
  await expect(first.locator('.notice-bell')).toBeVisible()
  const second = await signedIn(browser, logins[1])
  const online = presence(first, `${users[1]} 上线了`)
  await expect(online).toBeVisible()
  await expect(online).toContainText(/IP：\S+/)
  await expect(online).toContainText(/时间：\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/)
  // Shown for 2 s, then gone by itself, even with the pointer resting on it (it must not hide what is beneath).
  await online.hover()
  await expect(online).toHaveCount(0, { timeout: 5000 })

  // And the other way round: the first user leaves and comes back.
  await first.context().close()
  await expect(presence(second, `${users[0]} 下线了`)).toBeVisible()
  const again = await signedIn(browser, logins[0])
  await expect(presence(second, `${users[0]} 上线了`)).toBeVisible()
  await expect(again.locator('.notice-bell')).toBeVisible()
  await second.context().close()
  await expect(presence(again, `${users[1]} 下线了`)).toBeVisible()
  await again.context().close()
})
