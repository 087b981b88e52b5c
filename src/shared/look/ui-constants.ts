/**
 * The look constants of the spec's §9 (both files), in one place: screens import them from here
 * instead of writing the numbers again.
 */

/** Form row 24 columns, default span 8, label width 100 px (000 §9). */
export const FORM_LOOK = { grid: 24, span: 8, labelWidth: 100 } as const

/** The spec's colours (001 §9): primary, success, warning and error (antd 5's own error is #ff4d4f), the theme's seed tokens. */
export const SPEC_COLORS = { colorPrimary: '#1890ff', colorSuccess: '#52c41a', colorWarning: '#faad14', colorError: '#f5222f' } as const

/** The height of the icon dropdown (000 §9 "icon dropdown height 200"; antd's own is 256). */
export const ICON_DROPDOWN_HEIGHT = 200

/** The locked multi-page tab bar (001 §9): fixed after a 200 ms delay. */
export const TABS_LOCK = { delayMs: 200 } as const

/** App settings (001 §9): route changes fade in. */
export const ROUTE_ANIMATION = { name: 'fade', durationMs: 200 } as const

/** Video playback rates (000 §9). */
export const VIDEO_RATES = [0.7, 1, 1.5, 2] as const

/** The spec's video formats (000 §5 Uploads), checked by extension on both sides. */
export const VIDEO_EXTENSIONS = ['avi', 'wmv', 'mpeg', 'mp4', 'm4v', 'mov', 'asf', 'flv', 'f4v', 'rmvb', 'rm', '3gp', 'vob'] as const
