import { useEffect, useState, type ReactNode } from 'react'
import { Button, Drawer, Layout, theme as antdTheme } from 'antd'
import { MenuOutlined } from '@ant-design/icons'
import { useLocation } from 'react-router-dom'
import type { MenuEntry } from '../app/menus.js'
import { headerSlots } from '../app/header-slots.js'
import { useT } from '../i18n/use-t.js'
import { MenuSearch } from './MenuSearch.js'
import { UserMenu } from './UserMenu.js'
import './mobile-shell.css'

/** The drawer's width: the desktop sider's, never wider than the phone leaves beside a thumb's margin. */
const DRAWER_WIDTH = 'min(256px, 85vw)'

interface Props {
  systemTitle: string
  /** The shown page's title, in the header where the desktop shows its tab. */
  pageTitle?: string
  entries: MenuEntry[]
  /** The menu tree, shown in the drawer. */
  menu: ReactNode
  /** The one page shown (no tab bar: the browser's back goes to the page before). */
  children: ReactNode
}

/**
 * The shell of a phone-sized window (the H5 pages of 000 §2 and every other page at that width): a compact
 * header with the menu drawer, the page's title, the header items (the bell) and the user menu, which
 * holds the languages as well; no tab bar; the page uses the full width.
 */
export function MobileShell({ systemTitle, pageTitle, entries, menu, children }: Props) {
  const { token } = antdTheme.useToken()
  const location = useLocation()
  const t = useT()
  const [drawerOpen, setDrawerOpen] = useState(false)
  useEffect(() => setDrawerOpen(false), [location.pathname])

  return (
    <Layout className="shell shell-mobile" style={{ minHeight: '100vh' }}>
      <Layout.Header className="shell-header shell-mobile-header" style={{ background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
        <Button type="text" aria-label={t('menu.open')} icon={<MenuOutlined />} onClick={() => setDrawerOpen(true)} />
        <h1 className="shell-mobile-title" title={pageTitle ?? systemTitle}>
          {pageTitle ?? systemTitle}
        </h1>
        <div className="shell-header-right">
          {headerSlots().map(([key, Item]) => (
            <Item key={key} entries={entries} />
          ))}
          <UserMenu languages />
        </div>
      </Layout.Header>
      <Layout.Content className="shell-main shell-mobile-main" style={{ background: token.colorBgLayout }}>
        <div className="shell-content">{children}</div>
      </Layout.Content>
      <Drawer
        placement="left"
        width={DRAWER_WIDTH}
        open={drawerOpen}
        onClose={() => setDrawerOpen(false)}
        title={systemTitle}
        styles={{ body: { padding: 0 } }}
      >
        <div className="shell-mobile-search">
          <MenuSearch entries={entries} />
        </div>
        {menu}
      </Drawer>
    </Layout>
  )
}
