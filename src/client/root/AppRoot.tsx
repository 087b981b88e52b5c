import { useEffect, useMemo } from 'react'
import { App as AntdApp, ConfigProvider } from 'antd'
import { themeConfig } from '../app/theme.js'
import dayjs from 'dayjs'
import { BrowserRouter } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { ApiErrorBridge } from './api-error-bridge.js'
import { AppRoutes } from './AppRoutes.js'
import { useSettings } from '../app/settings.js'
import { useReducedMotion } from '../app/reduced-motion.js'
import { localeRow } from '../../shared/i18n/locales.js'
import { useLocale } from '../i18n/current-locale.js'
import { antdLocaleOf } from '../i18n/load-locale.js'

/**
 * Providers: antd (locale, theme, `App` for message/modal), SWR, router; then the routes. The language's
 * antd and dayjs texts were loaded before it was chosen (i18n/load-locale.ts).
 */
export function AppRoot() {
  const { theme } = useSettings()
  const locale = useLocale()
  const reducedMotion = useReducedMotion()
  const config = useMemo(() => themeConfig(theme, reducedMotion), [theme, reducedMotion])
  dayjs.locale(localeRow(locale)?.dayjs)
  useEffect(() => {
    document.documentElement.lang = locale
    document.documentElement.dataset.theme = theme
  }, [locale, theme])

  return (
    <ConfigProvider locale={antdLocaleOf(locale)} theme={config} wave={{ disabled: reducedMotion }} button={{ autoInsertSpace: false }}>
      <AntdApp className="app-root">
        <SWRConfig value={{ revalidateOnFocus: false, shouldRetryOnError: false, errorRetryCount: 0 }}>
          <BrowserRouter>
            <ApiErrorBridge />
            <AppRoutes />
          </BrowserRouter>
        </SWRConfig>
      </AntdApp>
    </ConfigProvider>
  )
}
