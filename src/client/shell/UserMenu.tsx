import { Avatar, Dropdown, Space } from 'antd'
import { LogoutOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons'
import { useNavigate } from 'react-router-dom'
import { useSWRConfig } from 'swr'
import { clearSession, useSession } from '../app/session.js'
import { useT } from '../i18n/use-t.js'
import { clearTabs } from '../app/tab-store.js'
import { call } from '../api/call.js'
import { auth } from '../../shared/contracts/auth.js'

/** Avatar menu: personal centre, personal settings, logout. */
export function UserMenu() {
  const { user } = useSession()
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

  return (
    <Dropdown
      trigger={['click', 'hover']}
      menu={{
        items: [
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
