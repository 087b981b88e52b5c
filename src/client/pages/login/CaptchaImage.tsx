import { useCallback, useEffect, useState } from 'react'
import { call } from '../../api/call.js'
import { auth, type Captcha } from '../../../shared/contracts/auth.js'
import { useT } from '../../i18n/use-t.js'

export type { Captcha }

/** GET /auth/captcha: a serial number and its image; `refresh()` asks for a new one. */
export function useCaptcha(enabled: boolean) {
  const [captcha, setCaptcha] = useState<Captcha>()
  const [failed, setFailed] = useState(false)
  const refresh = useCallback(async () => {
    try {
      setCaptcha(await call(auth.captcha, undefined, { hideError: true }))
      setFailed(false)
    } catch {
      setFailed(true)
    }
  }, [])
  useEffect(() => {
    if (enabled) void refresh()
  }, [enabled, refresh])
  return { captcha, failed, refresh }
}

/** The captcha image; a click fetches a new one. */
export function CaptchaImage({ captcha, onRefresh }: { captcha: Captcha | undefined; onRefresh: () => void }) {
  const t = useT()
  return (
    <button type="button" className="login-captcha-image" title={t('login.captcha.refresh')} aria-label={t('login.captcha.refresh')} onClick={onRefresh}>
      {captcha ? <img src={captcha.image} alt={t('login.captcha')} /> : <span>…</span>}
    </button>
  )
}
