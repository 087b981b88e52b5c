import { Avatar, Card, Col, Empty, Row, Typography } from 'antd'
import { AppstoreOutlined, UserOutlined } from '@ant-design/icons'
import dayjs from 'dayjs'
import { useNavigate } from 'react-router-dom'
import { flattenFunctions, isExternal, useMenus } from '../app/menus.js'
import { useSession } from '../app/session.js'
import { useSystemTitle } from '../app/system-info.js'
import { MenuIcon } from '../shell/MenuIcon.js'

function greeting(hour: number): string {
  if (hour < 6) return '凌晨好'
  if (hour < 12) return '上午好'
  if (hour < 14) return '中午好'
  if (hour < 18) return '下午好'
  return '晚上好'
}

/** The workplace: a welcome and the collected menus as shortcuts. */
export default function Workplace() {
  const { user } = useSession()
  const title = useSystemTitle()
  const navigate = useNavigate()
  const { data: menus } = useMenus()
  const collected = flattenFunctions(menus).filter((e) => e.menu.isCollect && e.menu.path)
  const now = dayjs()
  const name = user?.name || user?.username || ''

  return (
    <div className="workplace">
      <Card className="workplace-welcome">
        <div className="workplace-welcome-body">
          <Avatar size={64} icon={<UserOutlined />} style={{ backgroundColor: '#1890ff', flex: 'none' }} />
          <div>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {greeting(now.hour())}，{name}，欢迎使用{title}！
            </Typography.Title>
            <Typography.Text type="secondary">今天是 {now.format('YYYY年M月D日 dddd')}</Typography.Text>
          </div>
        </div>
      </Card>
      <Card
        title={
          <span>
            <AppstoreOutlined /> 快捷入口
          </span>
        }
        style={{ marginTop: 16 }}
      >
        {collected.length === 0 ? (
          <Empty description="暂无收藏的菜单，可在左侧菜单或页签右键菜单中点击收藏" />
        ) : (
          <Row gutter={[16, 16]} role="list" aria-label="快捷入口">
            {collected.map((e) => (
              <Col key={e.menu.id} xs={12} sm={8} md={6} lg={4} role="listitem">
                <button
                  type="button"
                  className="workplace-shortcut"
                  title={e.titles.join(' / ')}
                  onClick={() => (isExternal(e.menu.path) ? window.open(e.menu.path ?? '', '_blank', 'noopener') : navigate(e.menu.path ?? '/'))}
                >
                  <span className="workplace-shortcut-icon">
                    <MenuIcon name={e.icon || 'AppstoreOutlined'} />
                  </span>
                  <span className="workplace-shortcut-title">{e.menu.meta.title || e.menu.name}</span>
                </button>
              </Col>
            ))}
          </Row>
        )}
      </Card>
    </div>
  )
}
