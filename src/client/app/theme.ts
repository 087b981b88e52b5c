import { theme as antdTheme, type ThemeConfig } from 'antd'
import type { ThemeMode } from './settings.js'
import { SPEC_COLORS } from '../../shared/look/ui-constants.js'

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
