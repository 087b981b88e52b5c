import { theme as antdTheme, type ThemeConfig } from 'antd'
import type { ThemeMode } from './settings.js'

export const PRIMARY_COLOR = '#1890ff'

/** The spec's colours (001 §9): primary, success, warning and error (antd 5's own error is #ff4d4f). */
export const SPEC_COLORS = { colorPrimary: PRIMARY_COLOR, colorSuccess: '#52c41a', colorWarning: '#faad14', colorError: '#f5222f' } as const

export function themeConfig(mode: ThemeMode): ThemeConfig {
  if (mode === 'light') return { algorithm: antdTheme.defaultAlgorithm, token: { ...SPEC_COLORS } }
  if (mode === 'dark') return { algorithm: antdTheme.darkAlgorithm, token: { ...SPEC_COLORS } }
  // Night: antd's dark algorithm with our own seed tokens: a near-black blue-grey base, softer
  // (lower-contrast) text and a dimmer primary, for long evening shifts; dark keeps antd's default
  // dark palette. Chosen over the compact algorithm because night is about glare, not density.
  return {
    algorithm: antdTheme.darkAlgorithm,
    token: { colorPrimary: '#177ddc', colorBgBase: '#0b0f14', colorTextBase: '#c8ccd2' },
    components: { Layout: { siderBg: '#0b0f14', headerBg: '#0b0f14' }, Menu: { darkItemBg: '#0b0f14', darkSubMenuItemBg: '#070a0e' } },
  }
}
