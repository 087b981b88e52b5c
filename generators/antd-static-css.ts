import { createElement as h, type FC } from 'react'
import { Button, ConfigProvider, Drawer, Form, Input, Layout, message, Modal, notification, Popconfirm, Popover, Space, Tag, Tooltip } from 'antd'
import { FormGrid, FormItem, FormLayout } from '@formily/antd-v5'
import { extractStyle } from '@ant-design/static-style-extract'
import { themeConfig } from '../src/client/app/theme.js'
import type { ThemeMode } from '../src/client/app/settings.js'

/**
 * antd's styles of a theme as a static stylesheet, made at build time the way
 * antd documents it for server rendering ("whole export"): every component rendered once in Node and
 * the style cache written out as CSS. The sheet ends with antd's map of the styles it holds (a
 * `.data-ant-cssinjs-cache-path` rule), so in the browser @ant-design/cssinjs finds each component's
 * style there and neither generates it nor inserts a `<style>` at the component's first render (after a
 * few pages that was 59 style tags, 515 KB made at run time, about a fifth of a page's first open).
 * One sheet a theme (`mode`) and motion setting (`reducedMotion`: a user who asks for less motion,
 * app/reduced-motion.ts), whose tokens differ. The vite plugin `antdStaticStyles` (vite.config.ts) runs
 * this file with NODE_ENV=production (antd's production class names), links the light sheets first and
 * leaves the dark and night ones to the users who chose them (app/theme-sheets.ts). `npm run dev` makes
 * every style at run time.
 */
export function antdStaticCss(mode: ThemeMode, reducedMotion = false): string {
  // Components that render into a portal are rendered in place (`getContainer: false`) or as their
  // panels; not as Modal's panel, which sets a theme of its own (withPureRenderTheme), so its styles would
  // carry another token (Tour, which the app does not use, is left out for the same reason). A few styles
  // that a component registers only in some uses (a preset tag colour, a compact button, the sider, the
  // text area, a form item) are asked for.
  const portals = ([Tooltip, Popover, Popconfirm, message, notification] as const).map((C, i) =>
    h((C as unknown as { _InternalPanelDoNotUseOrYouWillBeFired: FC<object> })._InternalPanelDoNotUseOrYouWillBeFired, { key: `panel-${i}` }),
  )
  const uses = [
    h(Modal, { key: 'modal', open: true, getContainer: false }),
    h(Drawer, { key: 'drawer', open: true, getContainer: false }),
    h(Tag, { key: 'tag', color: 'blue' }),
    h(Space.Compact, { key: 'compact' }, h(Button, null)),
    h(Layout, { key: 'layout' }, h(Layout.Sider, null)),
    h(Input.TextArea, { key: 'textarea' }),
    h(Form, { key: 'form' }, h(Form.Item, null, h(Input, null))),
    // The formily fields of every form make their styles the same way, with antd's token.
    h(FormLayout, { key: 'formily' }, h(FormGrid, null, h(FormItem.BaseItem, null, h(Input, null)))),
  ]
  return extractStyle((node) => h(ConfigProvider, { theme: themeConfig(mode, reducedMotion) }, node, ...portals, ...uses))
}

/** `node --import tsx generators/antd-static-css.ts <light|dark|night> <full|reduced>` writes that sheet. */
if (process.argv[1] && import.meta.filename === process.argv[1]) process.stdout.write(antdStaticCss(process.argv[2] as ThemeMode, process.argv[3] === 'reduced'))
