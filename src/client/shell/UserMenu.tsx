import { Avatar, Dropdown, Space } from 'antd'
import { LogoutOutlined, SettingOutlined, TranslationOutlined, UserOutlined } from '@ant-design/icons'
import type { MenuProps } from 'antd'
import { useNavigate } from 'react-router-dom'
import { useSWRConfig } from 'swr'
import { clearSession, useSession } from '../app/session.js'
import { useT } from '../i18n/use-t.js'
import { clearTabs } from '../app/tab-store.js'
import { call } from '../api/call.js'
import { auth } from '../../shared/contracts/auth.js'
import { chooseLanguage, languageOptions } from '../app/LanguageSwitch.js'
import { useSettings } from '../app/settings.js'

/** Avatar menu: personal centre, personal settings, logout; with `languages` (the mobile shell, whose header has no room for the language button) the languages too. */
export function UserMenu({ languages = false }: { languages?: boolean }) {
  const { user } = useSession()
  const { language } = useSettings()
  const navigate = useNavigate()
  const t = useT()
  const { mutate } = useSWRConfig()
  const name = user?.name || user?.username || t('user.fallback')

  const logout = async () => {
    try {
      await call(auth.logout, undefined, { hideError: true })
    } catch {
      // The session may already be gone on the server; signing out locally is what matters.
    }
    clearSession()
    clearTabs()
    await mutate(() => true, undefined, { revalidate: false })
    navigate('/login', { replace: true })
  }

  const languageItems: MenuProps['items'] = languages
    ? [
        // A group in the menu itself, not a submenu: a submenu would open off the edge of a phone's screen.
        {
          key: 'language',
          type: 'group',
          label: (
            <span>
              <TranslationOutlined aria-hidden /> {t('lang.switch')}
            </span>
          ),
          children: languageOptions().map(({ value, label }) => ({ key: `language:${value}`, label, onClick: () => void chooseLanguage(value) })),
        },
        { type: 'divider' },
      ]
    : []

  return (
    <Dropdown
      trigger={languages ? ['click'] : ['click', 'hover']}
      menu={{
        selectable: languages,
        selectedKeys: languages ? [`language:${language}`] : [],
        items: [
          ...languageItems,
          { key: 'profile', icon: <UserOutlined aria-hidden />, label: t('user.profile'), onClick: () => navigate('/profile') },
          { key: 'settings', icon: <SettingOutlined aria-hidden />, label: t('user.settings'), onClick: () => navigate('/settings') },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined aria-hidden />, label: t('user.logout'), onClick: () => void logout() },
        ],
      }}
    >
      <button type="button" className="shell-user" aria-label={t('user.menu')}>
        <Space size={8}>
          <Avatar size="small" icon={<UserOutlined />} style={{ backgroundColor: '#1890ff' }} />
          <span className="shell-user-name">{name}</span>
        </Space>
      </button>
    </Dropdown>
  )
}
