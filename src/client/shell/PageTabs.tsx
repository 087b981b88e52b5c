import { App, Button, Dropdown, Tabs, Tooltip, type MenuProps } from 'antd'
import { LockOutlined, ReloadOutlined, StarFilled, StarOutlined, UnlockOutlined } from '@ant-design/icons'
import { useNavigate } from 'react-router-dom'
import type { MenuNode } from '../app/menus.js'
import { updateSettings, useSettings } from '../app/settings.js'
import { closeLeft, closeOthers, closeRight, closeTab, getTabs, isClosable, refreshTab, useTabs, type PageTab } from './tab-store.js'

export const LAST_TAB_WARNING = '这已经是最后一页，不能再关闭了！'

interface Props {
  activeKey: string | undefined
  menuById: Map<string, MenuNode>
  onToggleCollect: (menu: MenuNode) => void
}

/** Multi-page tabs: workplace first and fixed; right-click for close left/right/others and refresh. */
export function PageTabs({ activeKey, menuById, onToggleCollect }: Props) {
  const tabs = useTabs()
  const navigate = useNavigate()
  const { message } = App.useApp()
  const { tabsLocked } = useSettings()

  const goTo = (tab: PageTab | undefined) => tab && navigate(tab.fullPath)

  const close = (key: string) => {
    if (!isClosable(key) || getTabs().length <= 1) {
      void message.warning(getTabs().length <= 1 ? LAST_TAB_WARNING : '工作台不能关闭！')
      return
    }
    const next = closeTab(key)
    if (key === activeKey) goTo(next)
  }

  // Closing around a tab keeps that tab; if the active one went away, show the kept one.
  const keepAndShow = (key: string, op: (key: string) => void) => {
    op(key)
    if (!getTabs().some((t) => t.key === activeKey)) goTo(getTabs().find((t) => t.key === key))
  }

  const contextItems = (tab: PageTab, index: number): MenuProps['items'] => {
    const menu = tab.menuId ? menuById.get(tab.menuId) : undefined
    const hasLeft = tabs.slice(0, index).some((t) => isClosable(t.key))
    const hasRight = tabs.slice(index + 1).some((t) => isClosable(t.key))
    const hasOthers = tabs.some((t) => t.key !== tab.key && isClosable(t.key))
    const items: MenuProps['items'] = [
      { key: 'refresh', label: '刷新', icon: <ReloadOutlined aria-hidden /> },
      { key: 'close', label: '关闭' },
      { key: 'closeLeft', label: '关闭左侧', disabled: !hasLeft },
      { key: 'closeRight', label: '关闭右侧', disabled: !hasRight },
      { key: 'closeOthers', label: '关闭其他', disabled: !hasOthers },
    ]
    if (menu) {
      items.push({ type: 'divider' })
      items.push({ key: 'collect', label: menu.isCollect ? '取消收藏' : '收藏', icon: menu.isCollect ? <StarFilled aria-hidden /> : <StarOutlined aria-hidden /> })
    }
    return items
  }

  const onContext = (tab: PageTab, key: string) => {
    switch (key) {
      case 'refresh':
        refreshTab(tab.key)
        if (tab.key !== activeKey) goTo(tab)
        break
      case 'close':
        close(tab.key)
        break
      case 'closeLeft':
        keepAndShow(tab.key, closeLeft)
        break
      case 'closeRight':
        keepAndShow(tab.key, closeRight)
        break
      case 'closeOthers':
        keepAndShow(tab.key, closeOthers)
        break
      case 'collect': {
        const menu = tab.menuId ? menuById.get(tab.menuId) : undefined
        if (menu) onToggleCollect(menu)
        break
      }
    }
  }

  return (
    <div className={tabsLocked ? 'shell-tabs is-locked' : 'shell-tabs'}>
      <Tabs
        type="editable-card"
        size="small"
        hideAdd
        activeKey={activeKey ?? ''}
        onChange={(key) => goTo(tabs.find((t) => t.key === key))}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') close(key)
        }}
        items={tabs.map((tab, index) => ({
          key: tab.key,
          closable: isClosable(tab.key),
          label: (
            <Dropdown trigger={['contextMenu']} menu={{ items: contextItems(tab, index), onClick: ({ key }) => onContext(tab, key) }}>
              <span className="shell-tab-label" data-tab-key={tab.key}>
                {tab.title}
              </span>
            </Dropdown>
          ),
        }))}
        tabBarExtraContent={{
          right: (
            <Tooltip title={tabsLocked ? '解锁标签栏' : '锁定标签栏'}>
              <Button
                type="text"
                size="small"
                aria-label={tabsLocked ? '解锁标签栏' : '锁定标签栏'}
                aria-pressed={tabsLocked}
                icon={tabsLocked ? <LockOutlined /> : <UnlockOutlined />}
                onClick={() => updateSettings({ tabsLocked: !tabsLocked })}
              />
            </Tooltip>
          ),
        }}
      />
    </div>
  )
}
