import { useEffect, useMemo } from 'react'
import { App as AntdApp, ConfigProvider, theme as antdTheme, type ThemeConfig } from 'antd'
import dayjs from 'dayjs'
import { BrowserRouter } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { ApiErrorBridge } from './api-error-bridge.js'
import { AppRoutes } from './AppRoutes.js'
import { useSettings, type ThemeMode } from '../app/settings.js'
import { localeRow } from '../../shared/i18n/locales.js'
import { useLocale } from '../i18n/current-locale.js'
import { antdLocaleOf } from '../i18n/load-locale.js'

export const PRIMARY_COLOR = '#1890ff'

export function themeConfig(mode: ThemeMode): ThemeConfig {
  if (mode === 'light') return { algorithm: antdTheme.defaultAlgorithm, token: { colorPrimary: PRIMARY_COLOR } }
  if (mode === 'dark') return { algorithm: antdTheme.darkAlgorithm, token: { colorPrimary: PRIMARY_COLOR } }
  // Night: antd's dark algorithm with our own seed tokens: a near-black blue-grey base, softer
  // (lower-contrast) text and a dimmer primary, for long evening shifts; dark keeps antd's default
  // dark palette. Chosen over the compact algorithm because night is about glare, not density.
  return {
    algorithm: antdTheme.darkAlgorithm,
    token: { colorPrimary: '#177ddc', colorBgBase: '#0b0f14', colorTextBase: '#c8ccd2' },
    components: { Layout: { siderBg: '#0b0f14', headerBg: '#0b0f14' }, Menu: { darkItemBg: '#0b0f14', darkSubMenuItemBg: '#070a0e' } },
  }
}

/**
 * Providers: antd (locale, theme, `App` for message/modal), SWR, router; then the routes. The language's
 * antd and dayjs texts were loaded before it was chosen (i18n/load-locale.ts).
 */
export function AppRoot() {
  const { theme } = useSettings()
  const locale = useLocale()
  const config = useMemo(() => themeConfig(theme), [theme])
  dayjs.locale(localeRow(locale)?.dayjs)
  useEffect(() => {
    document.documentElement.lang = locale
    document.documentElement.dataset.theme = theme
  }, [locale, theme])

  return (
    <ConfigProvider locale={antdLocaleOf(locale)} theme={config} button={{ autoInsertSpace: false }}>
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
