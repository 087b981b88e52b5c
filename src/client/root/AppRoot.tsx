import { useEffect, useMemo } from 'react'
import { App as AntdApp, ConfigProvider, theme as antdTheme, type ThemeConfig } from 'antd'
import type { Locale } from 'antd/es/locale'
import zhCN from 'antd/es/locale/zh_CN'
import zhHK from 'antd/es/locale/zh_HK'
import enUS from 'antd/es/locale/en_US'
import dayjs from 'dayjs'
import 'dayjs/locale/zh-cn'
import 'dayjs/locale/zh-hk'
import 'dayjs/locale/en'
import { BrowserRouter } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { ApiErrorBridge } from './api-error-bridge.js'
import { AppRoutes } from './AppRoutes.js'
import { useSettings, type Language, type ThemeMode } from '../app/settings.js'

export const PRIMARY_COLOR = '#1890ff'

const ANTD_LOCALES: Record<Language, Locale> = { CN: zhCN, HK: zhHK, US: enUS }
const DAYJS_LOCALES: Record<Language, string> = { CN: 'zh-cn', HK: 'zh-hk', US: 'en' }
const HTML_LANG: Record<Language, string> = { CN: 'zh-CN', HK: 'zh-HK', US: 'en' }

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

/** Providers: antd (locale, theme, `App` for message/modal), SWR, router; then the routes. */
export function AppRoot() {
  const { theme, language } = useSettings()
  const config = useMemo(() => themeConfig(theme), [theme])
  dayjs.locale(DAYJS_LOCALES[language])
  useEffect(() => {
    document.documentElement.lang = HTML_LANG[language]
    document.documentElement.dataset.theme = theme
  }, [language, theme])

  return (
    <ConfigProvider locale={ANTD_LOCALES[language]} theme={config} button={{ autoInsertSpace: false }}>
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
