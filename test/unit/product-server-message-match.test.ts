import { describe, expect, it } from 'vitest'
import { serverMessageMatcher } from '../../src/client/features/product/server-message-match.js'
import { translatorOf } from '../../src/shared/i18n/all-catalogues.js'
import type { Locale } from '../../src/shared/i18n/locales.js'

/** The product inputs recognise the server's refusals about their lines in the language they arrive in. */
describe('serverMessageMatcher', () => {
  const LINES = /^第\d+行单品|^单品数据不能为空|^单品的销售价设置错误/
  let locale: Locale = 'zh-CN'
  const isLineMessage = serverMessageMatcher(LINES, () => locale)

  it('matches the Simplified wording in every language', () => {
    for (locale of ['zh-CN', 'en-US', 'zh-HK'] as const) expect(isLineMessage('第2行单品：单品不存在！')).toBe(true)
  })

  it('matches the translation the server sends, parameters included, and nothing else', () => {
    for (locale of ['en-US', 'zh-HK'] as const) {
      const translate = translatorOf(locale)
      const sent = [translate('第2行单品：单品不存在！'), translate('单品数据不能为空！'), translate('单品的销售价设置错误！')]
      for (const message of sent) {
        expect(message).not.toBe('')
        expect(isLineMessage(message), `${locale}: ${message}`).toBe(true)
      }
      expect(isLineMessage(translate('商品不能为空！'))).toBe(false)
    }
    locale = 'zh-CN'
    expect(isLineMessage(translatorOf('en-US')('单品数据不能为空！'))).toBe(false)
  })
})
