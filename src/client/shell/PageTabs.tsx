import { useEffect, useState } from 'react'
import { App, Button, Dropdown, Tabs, Tooltip, type MenuProps } from 'antd'
import { LockOutlined, ReloadOutlined, StarFilled, StarOutlined, UnlockOutlined } from '@ant-design/icons'
import { useNavigate } from 'react-router-dom'
import type { MenuNode } from '../app/menus.js'
import { updateSettings, useSettings } from '../app/settings.js'
import { TABS_LOCK } from '../../shared/look/ui-constants.js'
import { useT } from '../i18n/use-t.js'
import { useTr } from '../i18n/use-tr.js'
import { isTabDirty } from '../app/tab-dirty.js'
import {
  closeLeft,
  closeOthers,
  closeRight,
  closeTab,
  getTabs,
  isClosable,
  refreshTab,
  REFRESH_SPIN_INACTIVE_MS,
  REFRESH_SPIN_MS,
  useTabs,
  type PageTab,
} from '../app/tab-store.js'

interface Props {
  activeKey: string | undefined
  menuById: Map<string, MenuNode>
  /** The tab's title in the current language (fixed pages), else the title it was opened with. */
  titleOf: (tab: PageTab) => string
  onToggleCollect: (menu: MenuNode) => void
}

/**
 * Multi-page tabs (000 §2): workplace first and fixed; right-click for refresh and close left, right,
 * others (a tab with unsaved input asks first); a lock that keeps the tab bar on top while the page scrolls.
 */
export function PageTabs({ activeKey, menuById, titleOf, onToggleCollect }: Props) {
  const tabs = useTabs()
  const navigate = useNavigate()
  const t = useT()
  const tr = useTr()
  const { message, modal } = App.useApp()
  const { tabsLocked } = useSettings()
  // The locked bar is fixed after the spec's delay (001 §9: lock affix delay 200 ms), once the page has
  // settled under the header; unlocking frees it at once.
  const [affixed, setAffixed] = useState(tabsLocked)
  useEffect(() => {
    if (!tabsLocked) return setAffixed(false)
    const timer = window.setTimeout(() => setAffixed(true), TABS_LOCK.delayMs)
    return () => window.clearTimeout(timer)
  }, [tabsLocked])

  const goTo = (tab: PageTab | undefined) => tab && navigate(tab.fullPath)

  /** Unsaved input in any of the tabs to close: asks first, then closes. */
  const discarding = (keys: string[], then: () => void) => {
    if (!keys.some(isTabDirty)) return then()
    modal.confirm({ title: tr('有未保存的内容，确定关闭吗？'), okText: tr('确定'), cancelText: tr('取消'), onOk: then })
  }

  const close = (key: string) => {
    if (!isClosable(key) || getTabs().length <= 1) {
      void message.warning(getTabs().length <= 1 ? t('tabs.lastTab') : t('tabs.workplaceFixed'))
      return
    }
    discarding([key], () => {
      const next = closeTab(key)
      if (key === activeKey) goTo(next)
    })
  }

  // Closing around a tab keeps that tab; if the active one went away, show the kept one.
  const keepAndShow = (key: string, op: (key: string) => void, closing: PageTab[]) =>
    discarding(
      closing.map((tab) => tab.key),
      () => {
        op(key)
        if (!getTabs().some((tab) => tab.key === activeKey)) goTo(getTabs().find((tab) => tab.key === key))
      },
    )

  const contextItems = (tab: PageTab, index: number): MenuProps['items'] => {
    const menu = tab.menuId ? menuById.get(tab.menuId) : undefined
    const hasLeft = tabs.slice(0, index).some((x) => isClosable(x.key))
    const hasRight = tabs.slice(index + 1).some((x) => isClosable(x.key))
    const hasOthers = tabs.some((x) => x.key !== tab.key && isClosable(x.key))
    const items: MenuProps['items'] = [
      { key: 'refresh', label: t('tabs.refresh'), icon: <ReloadOutlined aria-hidden /> },
      { key: 'close', label: t('tabs.close') },
      { key: 'closeLeft', label: t('tabs.closeLeft'), disabled: !hasLeft },
      { key: 'closeRight', label: t('tabs.closeRight'), disabled: !hasRight },
      { key: 'closeOthers', label: t('tabs.closeOthers'), disabled: !hasOthers },
    ]
    if (menu) {
      items.push({ type: 'divider' })
      items.push({
        key: 'collect',
        label: menu.isCollect ? t('menu.uncollect') : t('menu.collect'),
        icon: menu.isCollect ? <StarFilled aria-hidden /> : <StarOutlined aria-hidden />,
      })
    }
    return items
  }

  const onContext = (tab: PageTab, key: string) => {
    switch (key) {
      case 'refresh': {
        const active = tab.key === activeKey
        refreshTab(tab.key, active ? REFRESH_SPIN_MS : REFRESH_SPIN_INACTIVE_MS)
        if (!active) goTo(tab)
        break
      }
      case 'close':
        close(tab.key)
        break
      case 'closeLeft':
        keepAndShow(tab.key, closeLeft, tabs.slice(0, tabs.indexOf(tab)))
        break
      case 'closeRight':
        keepAndShow(tab.key, closeRight, tabs.slice(tabs.indexOf(tab) + 1))
        break
      case 'closeOthers':
        keepAndShow(tab.key, closeOthers, tabs.filter((x) => x !== tab))
        break
      case 'collect': {
        const menu = tab.menuId ? menuById.get(tab.menuId) : undefined
        if (menu) onToggleCollect(menu)
        break
      }
    }
  }

  const lockLabel = tabsLocked ? t('tabs.unlock') : t('tabs.lock')
  return (
    <div className={affixed ? 'shell-tabs is-locked' : 'shell-tabs'} data-locked={tabsLocked}>
      <Tabs
        type="editable-card"
        size="small"
        hideAdd
        activeKey={activeKey ?? ''}
        onChange={(key) => goTo(tabs.find((tab) => tab.key === key))}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') close(key)
        }}
        items={tabs.map((tab, index) => ({
          key: tab.key,
          closable: isClosable(tab.key),
          label: (
            <Dropdown trigger={['contextMenu']} menu={{ items: contextItems(tab, index), onClick: ({ key }) => onContext(tab, key) }}>
              <span className="shell-tab-label" data-tab-key={tab.key}>
                {tab.refreshing !== undefined && <ReloadOutlined spin aria-hidden className="shell-tab-spin" />}
                {titleOf(tab)}
              </span>
            </Dropdown>
          ),
        }))}
        tabBarExtraContent={{
          right: (
            <Tooltip title={lockLabel}>
              <Button
                type="text"
                size="small"
                aria-label={lockLabel}
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
