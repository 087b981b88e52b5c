/**
 * The look constants of the spec's §9 (both files), in one place: screens import them from here
 * instead of writing the numbers again.
 */

/**
 * Form row 24 columns, default span 8, label width 100 px, content width 60 % (000 §9). The content
 * width is that of a form standing on a page of its own (the 参数设置 pages, a custom form opened as a
 * page): a dialog's form has the dialog's width, and a document's header keeps the page's width for
 * its three columns and its line table.
 */
export const FORM_LOOK = { grid: 24, span: 8, labelWidth: 100, contentWidth: '60%' } as const

/** The CSS width of a page's form: the content width, but on a narrow window (a phone) 480 px or the whole width. */
export const PAGE_FORM_WIDTH = `max(${FORM_LOOK.contentWidth}, min(100%, 480px))`

/** The spec's colours (001 §9): primary, success, warning and error (antd 5's own error is #ff4d4f), the theme's seed tokens. */
export const SPEC_COLORS = { colorPrimary: '#1890ff', colorSuccess: '#52c41a', colorWarning: '#faad14', colorError: '#f5222f' } as const

/** The height of the icon dropdown (000 §9 "icon dropdown height 200"; antd's own is 256). */
export const ICON_DROPDOWN_HEIGHT = 200

/**
 * The locked multi-page tab bar (001 §9 "lock affix delay 200 ms; tab offset 24 px in multi-page
 * mode"): fixed 200 ms after locking, and fixed right under the header, never under it. The spec's
 * 24 px is how far its page is drawn up under the tab bar so that the content's own padding does not
 * stack on the bar's: here the bar stands outside the padded content, so the page starts one content
 * gap below it (`pageGapMax` at most), which is what that offset achieves.
 */
export const TABS_LOCK = { delayMs: 200, pageGapMax: 24 } as const

/**
 * The default table height (000 §9 "viewport minus 140 (or minus 360)"): a list page's rows scroll
 * inside the page under their header, so the pager stays in sight. 360 is what a list with a search
 * card gives up (header, tab bar, search card, toolbar, pager); 140 is the least any list gives up.
 * A list never gives up less than what really stands above and below its rows (a search form of more
 * rows, figures over the list), and never shrinks its rows below `minRows` px: a list low on a page
 * of several blocks scrolls with the page instead.
 */
export const TABLE_HEIGHT = { withSearch: 360, plain: 140, minRows: 240 } as const

/** App settings (001 §9): route changes fade in. */
export const ROUTE_ANIMATION = { name: 'fade', durationMs: 200 } as const

/** Video playback rates (000 §9). */
export const VIDEO_RATES = [0.7, 1, 1.5, 2] as const

/** The spec's video formats (000 §5 Uploads), checked by extension on both sides. */
export const VIDEO_EXTENSIONS = ['avi', 'wmv', 'mpeg', 'mp4', 'm4v', 'mov', 'asf', 'flv', 'f4v', 'rmvb', 'rm', '3gp', 'vob'] as const

/** A user who asked their system for less motion (app/reduced-motion.ts; its own antd sheets, vite.config.ts). */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)'
