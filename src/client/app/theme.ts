import { theme as antdTheme, type ThemeConfig } from 'antd'
import type { MappingAlgorithm } from 'antd/es/theme/interface'
import type { ThemeMode } from './settings.js'
import { SPEC_COLORS } from '../../shared/look/ui-constants.js'

/**
 * The dark algorithm derives a darker red from the seed (#d3202b from #f5222f); the spec's error colour
 * (001 §9) is one red in every mode, so it is set again after the dark palette. Its text, border and
 * background variants stay derived for the dark background.
 */
const specError: MappingAlgorithm = (seed, map) => ({ ...(map ?? antdTheme.defaultAlgorithm(seed)), colorError: SPEC_COLORS.colorError })

/** The theme of `mode`; `reducedMotion` (app/reduced-motion.ts) turns antd's animations off. */
export function themeConfig(mode: ThemeMode, reducedMotion = false): ThemeConfig {
  const config = modeConfig(mode)
  return reducedMotion ? { ...config, token: { ...config.token, motion: false } } : config
}

function modeConfig(mode: ThemeMode): ThemeConfig {
  if (mode === 'light') return { algorithm: antdTheme.defaultAlgorithm, token: { ...SPEC_COLORS } }
  if (mode === 'dark') return { algorithm: [antdTheme.darkAlgorithm, specError], token: { ...SPEC_COLORS } }
  // Night: antd's dark algorithm with our own seed tokens: a near-black blue-grey base, softer
  // (lower-contrast) text and a dimmer primary, for long evening shifts; dark keeps antd's default
  // dark palette. Chosen over the compact algorithm because night is about glare, not density. The
  // spec's success, warning and error colours hold here too (a red that means error is the same red).
  return {
    algorithm: [antdTheme.darkAlgorithm, specError],
    token: { ...SPEC_COLORS, colorPrimary: '#177ddc', colorBgBase: '#0b0f14', colorTextBase: '#c8ccd2' },
    components: { Layout: { siderBg: '#0b0f14', headerBg: '#0b0f14' }, Menu: { darkItemBg: '#0b0f14', darkSubMenuItemBg: '#070a0e' } },
  }
}
