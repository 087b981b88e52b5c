import type { FastifyInstance } from 'fastify'
import { TERM_CATALOGUES } from '../../shared/i18n/terms.js'
import { createTranslator, localeOfAcceptLanguage, type Locale, type Translator } from '../../shared/i18n/translate.js'
import messagesEnUS from './messages.en-US.json'
import messagesZhHK from './messages.zh-HK.json'

/**
 * Server messages in the caller's language. Routes and rules keep writing the spec's Simplified text
 * (the wire contract for zh-CN); the envelope's `msg` is translated on its way out, in this one place,
 * by catalogues keyed by that text. Labels inside a message (请输入{label}) come from the term catalogue.
 */
const translators: Record<Exclude<Locale, 'zh-CN'>, Translator> = {
  'en-US': createTranslator(messagesEnUS, TERM_CATALOGUES['en-US']),
  'zh-HK': createTranslator(messagesZhHK, TERM_CATALOGUES['zh-HK']),
}

export const MESSAGE_CATALOGUES = { 'en-US': messagesEnUS, 'zh-HK': messagesZhHK } as const

/** The message translator of a locale; Simplified passes through. */
export function messageTranslator(locale: Exclude<Locale, 'zh-CN'>): Translator {
  return translators[locale]
}

export function translateMessage(msg: string, locale: Locale): string {
  return locale === 'zh-CN' ? msg : translators[locale](msg)
}

/** Every JSON answer's `msg` (errors and successes alike) in the language of the request's Accept-Language. */
export function installMessageLanguage(app: FastifyInstance): void {
  app.addHook('preSerialization', async (req, _reply, payload: unknown) => {
    const locale = localeOfAcceptLanguage(req.headers['accept-language'])
    if (locale === 'zh-CN' || !payload || typeof payload !== 'object' || Array.isArray(payload)) return payload
    const msg = (payload as { msg?: unknown }).msg
    return typeof msg === 'string' ? { ...payload, msg: translateMessage(msg, locale) } : payload
  })
}
