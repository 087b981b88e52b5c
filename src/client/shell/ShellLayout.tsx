import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { prefetchCommonPages } from './prefetch-pages.js'
import { App, Button, Layout, Menu, theme as antdTheme } from 'antd'
import { CloudOutlined, DownOutlined, MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons'
import { useLocation, useNavigate } from 'react-router-dom'
import { useMeta } from '../api/meta.js'
import { flattenFunctions, landingPath, isExternal, MENU_FUNCTION, setMenuCollected, useMenus, type MenuNode } from '../app/menus.js'
import { saveSession, useSession } from '../app/session.js'
import { useSettings } from '../app/settings.js'
import { usePageTitle, useSystemTitle } from '../app/system-info.js'
import { useT } from '../i18n/use-t.js'
import { LanguageSwitch } from '../app/LanguageSwitch.js'
import { headerSlots } from '../app/header-slots.js'
import ErrorPage from '../pages/ErrorPage.js'
import { ancestorKeys, menuKey, toMenuItems } from './menu-items.js'
import { MenuSearch } from './MenuSearch.js'
import { resolvePage } from './page-registry.js'
import { singletonOfMenu } from '../runtime/singleton/singleton-menus.js'
import { PageTabs } from './PageTabs.js'
import { getTabs, isFreshOpening, openTab, refreshTab, useTabs, type PageTab } from '../app/tab-store.js'
import { isTabDirty } from '../app/tab-dirty.js'
import { PageLoading } from './PageLoading.js'
import { TabPanes } from './TabPanes.js'
import { UserMenu } from './UserMenu.js'
import { MobileShell } from './MobileShell.js'
import { useNarrowScreen } from '../app/narrow-screen.js'
import { useTr } from '../i18n/use-tr.js'
import { useCall } from '../app/use-call.js'
import { auth } from '../../shared/contracts/auth.js'

export const SIDER_WIDTH = 256
export const SIDER_COLLAPSED_WIDTH = 80

/** Keeps the cached user, roles and permissions current while the shell is open. */
function useRefreshCurrentUser() {
  useCall(auth.info, undefined, { swr: { revalidateOnFocus: false, onSuccess: (info) => saveSession(info) } })
}

function Logo({ title, collapsed, dark }: { title: string; collapsed: boolean; dark: boolean }) {
  return (
    <div className={dark ? 'shell-logo is-dark' : 'shell-logo'} title={title}>
      <CloudOutlined className="shell-logo-icon" />
      {!collapsed && <span className="shell-logo-title">{title}</span>}
    </div>
  )
}

/** The signed-in frame: menus (side, head or mixed layout), header, multi-page tabs and the pages. */
export default function ShellLayout() {
  const session = useSession()
  const settings = useSettings()
  const systemTitle = useSystemTitle()
  const { token } = antdTheme.useToken()
  const { message, modal } = App.useApp()
  const location = useLocation()
  const navigate = useNavigate()
  const mobile = useNarrowScreen()
  const tabs = useTabs()
  const t = useT()
  const tr = useTr()
  useRefreshCurrentUser()

  const { data: menus, mutate: mutateMenus } = useMenus()
  const menusReady = menus !== undefined
  const tree = useMemo(() => menus ?? [], [menus])
  const entries = useMemo(() => flattenFunctions(menus), [menus])
  const menuById = useMemo(() => new Map(entries.map((e) => [e.menu.id, e.menu])), [entries])

  const meta = useMeta()
  const entityLabel = useCallback((name: string) => meta?.entityOrUndefined(name)?.label, [meta])
  const resolve = useCallback((path: string) => resolvePage(path, entries, session, t, entityLabel), [entries, session, t, entityLabel])
  const titleOf = useCallback((tab: PageTab) => tr(resolve(tab.key)?.title ?? tab.title), [resolve, tr])
  const current = useMemo(() => resolve(location.pathname), [resolve, location.pathname])
  const activeKey = current?.key

  // 新增 opens its page afresh even when an abandoned one is still open (asking first when it holds
  // unsaved input): once per navigation, not again when the menus or the language change.
  const fresh = isFreshOpening(location.state)
  const renewed = useRef<string | undefined>(undefined)
  useEffect(() => {
    if (!current) return
    const existed = getTabs().some((tab) => tab.key === current.key)
    openTab({ key: current.key, fullPath: location.pathname + location.search, title: current.title, menuId: current.menu?.id })
    if (!fresh || !existed || renewed.current === location.key) return
    renewed.current = location.key
    const renew = () => refreshTab(current.key, 0)
    if (isTabDirty(current.key)) modal.confirm({ title: tr('有未保存的内容，确定关闭吗？'), okText: tr('确定'), cancelText: tr('取消'), onOk: renew })
    else renew()
  }, [current, location.pathname, location.search, location.key, fresh, modal, tr])
  usePageTitle(current?.title ? tr(current.title) : menusReady ? '404' : undefined)

  const [collapsed, setCollapsed] = useState(false)
  useEffect(() => prefetchCommonPages(), [])

  const toggleCollect = useCallback(
    async (menu: MenuNode) => {
      const next = !menu.isCollect
      await setMenuCollected(menu.id, next)
      void message.success(next ? t('menu.collected') : t('menu.uncollected'))
      await mutateMenus()
    },
    [message, mutateMenus, t],
  )
  const onToggleCollect = useCallback((menu: MenuNode) => void toggleCollect(menu).catch(() => undefined), [toggleCollect])

  // Mixed layout: top-level entries in the header, the chosen one's children in the sider.
  const ancestors = useMemo(() => (current?.menu?.path ? ancestorKeys(tree, current.menu.path) : []), [tree, current])
  const visibleTop = useMemo(() => tree.filter((n) => !n.hidden), [tree])
  const [topKey, setTopKey] = useState<string | undefined>()
  useEffect(() => {
    const own = current?.menu && visibleTop.some((n) => menuKey(n) === menuKey(current.menu!)) ? menuKey(current.menu) : undefined
    const k = ancestors[0] ?? own
    if (k) setTopKey(k)
  }, [ancestors, current, visibleTop])
  const topNode = visibleTop.find((n) => menuKey(n) === topKey) ?? visibleTop[0]

  const layout = mobile ? 'side' : settings.layout
  const siderNodes = layout === 'mixed' ? (topNode && topNode.display !== MENU_FUNCTION ? topNode.children : []) : tree
  const showSider = !mobile && layout !== 'head' && siderNodes.some((n) => !n.hidden)
  const darkMenus = settings.theme !== 'light'

  const [openKeys, setOpenKeys] = useState<string[]>([])
  useEffect(() => {
    // The same keys stay the same state: a page opened in an open catalog renders the shell no more.
    if (ancestors.length) setOpenKeys((keys) => (ancestors.every((k) => keys.includes(k)) ? keys : Array.from(new Set([...keys, ...ancestors]))))
  }, [ancestors])

  const onMenuClick = useCallback(
    ({ key }: { key: string }) => {
      if (key.startsWith('menu-') || isExternal(key)) return
      navigate(key)
    },
    [navigate],
  )

  // The side menu (a hundred entries) is made again only when what it shows changes, not at every render of
  // the shell: opening a page renders the shell more than once (the address, then its tab).
  const selectedPath = current?.menu?.path
  const sideMenu = useCallback(
    (inDrawer: boolean) => (
      <Menu
        mode="inline"
        theme={darkMenus && !inDrawer ? 'dark' : 'light'}
        aria-label={t('menu.nav')}
        items={toMenuItems(inDrawer ? tree : siderNodes, { onToggleCollect })}
        selectedKeys={selectedPath ? [selectedPath] : []}
        {...(collapsed && !inDrawer ? {} : { openKeys, onOpenChange: (keys: string[]) => setOpenKeys(keys) })}
        onClick={onMenuClick}
      />
    ),
    [darkMenus, t, tree, siderNodes, onToggleCollect, selectedPath, collapsed, openKeys, onMenuClick],
  )
  const siderMenu = useMemo(() => sideMenu(false), [sideMenu])

  // The modules that do not fit the header are under a labelled 更多, not a bare ellipsis.
  const more = (
    <span className="shell-menu-more">
      {t('menu.more')} <DownOutlined aria-hidden style={{ fontSize: 10 }} />
    </span>
  )
  const headerMenu =
    !mobile && layout === 'head' ? (
      <Menu
        mode="horizontal"
        theme={darkMenus ? 'dark' : 'light'}
        aria-label={t('menu.nav')}
        className="shell-header-menu"
        overflowedIndicator={more}
        items={toMenuItems(tree, { onToggleCollect })}
        selectedKeys={current?.menu?.path ? [current.menu.path, ...ancestors] : []}
        onClick={onMenuClick}
      />
    ) : !mobile && layout === 'mixed' ? (
      <Menu
        mode="horizontal"
        theme={darkMenus ? 'dark' : 'light'}
        aria-label={t('menu.top')}
        className="shell-header-menu"
        overflowedIndicator={more}
        items={toMenuItems(visibleTop, { shallow: true })}
        selectedKeys={topNode ? [menuKey(topNode)] : []}
        onClick={({ key }) => {
          const node = visibleTop.find((n) => menuKey(n) === key)
          if (!node) return
          setTopKey(key)
          const leaf = landingPath(node, (m) => Boolean(meta && singletonOfMenu(meta.all(), m)))
          if (leaf && isExternal(leaf)) window.open(leaf, '_blank', 'noopener')
          else if (leaf) navigate(leaf)
        }}
      />
    ) : null

  const headerBg = darkMenus && layout !== 'side' ? (settings.theme === 'night' ? '#0b0f14' : '#001529') : token.colorBgContainer
  // A phone shows one page at a time: the other open tabs are neither shown nor kept mounted.
  const content = current ? (
    <TabPanes tabs={mobile ? tabs.filter((tab) => tab.key === activeKey) : tabs} activeKey={activeKey} resolve={resolve} menusReady={menusReady} />
  ) : menusReady ? (
    <ErrorPage kind="404" embedded />
  ) : (
    <PageLoading />
  )

  if (mobile)
    return (
      <MobileShell systemTitle={systemTitle} pageTitle={current?.title ? tr(current.title) : undefined} entries={entries} menu={sideMenu(true)}>
        {content}
      </MobileShell>
    )

  return (
    <Layout className={`shell shell-layout-${layout} shell-theme-${settings.theme}`} style={{ minHeight: '100vh' }}>
      {showSider && layout === 'side' && (
        <Layout.Sider
          width={SIDER_WIDTH}
          collapsedWidth={SIDER_COLLAPSED_WIDTH}
          collapsible
          collapsed={collapsed}
          trigger={null}
          theme={darkMenus ? 'dark' : 'light'}
          className="shell-sider"
        >
          <Logo title={systemTitle} collapsed={collapsed} dark={darkMenus} />
          {siderMenu}
        </Layout.Sider>
      )}
      <Layout>
        <Layout.Header className="shell-header" style={{ background: headerBg, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
          {layout !== 'side' && <Logo title={systemTitle} collapsed={false} dark={darkMenus} />}
          {showSider && (
            <Button
              type="text"
              aria-label={collapsed ? t('menu.expand') : t('menu.collapse')}
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => setCollapsed((c) => !c)}
              style={{ color: layout !== 'side' && darkMenus ? '#fff' : undefined }}
            />
          )}
          <div className="shell-header-middle">{headerMenu}</div>
          <div className="shell-header-right">
            <MenuSearch entries={entries} />
            <LanguageSwitch />
            {headerSlots().map(([key, Item]) => (
              <Item key={key} entries={entries} />
            ))}
            <UserMenu />
          </div>
        </Layout.Header>
        <Layout hasSider={showSider && layout === 'mixed'}>
          {showSider && layout === 'mixed' && (
            <Layout.Sider
              width={SIDER_WIDTH}
              collapsedWidth={SIDER_COLLAPSED_WIDTH}
              collapsible
              collapsed={collapsed}
              trigger={null}
              theme={darkMenus ? 'dark' : 'light'}
              className="shell-sider"
            >
              {siderMenu}
            </Layout.Sider>
          )}
          <Layout.Content className="shell-main" style={{ background: token.colorBgLayout }}>
            <PageTabs activeKey={activeKey} menuById={menuById} titleOf={titleOf} onToggleCollect={onToggleCollect} />
            <div className="shell-content">{content}</div>
          </Layout.Content>
        </Layout>
      </Layout>
    </Layout>
  )
}
