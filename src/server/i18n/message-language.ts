import type { FastifyInstance } from 'fastify'
import { translatorOf } from '../../shared/i18n/all-catalogues.js'
import { localeOfAcceptLanguage, SOURCE_LOCALE } from '../../shared/i18n/locales.js'

/**
 * Every JSON answer's `msg` (errors and successes alike) in the language of the request's
 * Accept-Language. Routes and rules keep writing the spec's Simplified text (the wire contract for
 * zh-CN); it is translated here, on its way out, by the catalogues of src/shared/i18n keyed by that text.
 */
export function installMessageLanguage(app: FastifyInstance): void {
  app.addHook('preSerialization', async (req, _reply, payload: unknown) => {
    const locale = localeOfAcceptLanguage(req.headers['accept-language'])
    if (locale === SOURCE_LOCALE || !payload || typeof payload !== 'object' || Array.isArray(payload)) return payload
    const msg = (payload as { msg?: unknown }).msg
    return typeof msg === 'string' ? { ...payload, msg: translatorOf(locale)(msg) } : payload
  })
}
