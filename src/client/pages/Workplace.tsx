import { Avatar, Card, Col, Empty, Row, Typography } from 'antd'
import { AppstoreOutlined, UserOutlined } from '@ant-design/icons'
import dayjs from 'dayjs'
import { useNavigate } from 'react-router-dom'
import { flattenFunctions, isExternal, useMenus } from '../app/menus.js'
import { useSession } from '../app/session.js'
import { useSystemTitle } from '../app/system-info.js'
import { useT } from '../i18n/use-t.js'
import type { MessageKey } from '../i18n/messages.js'
import { MenuIcon } from '../components/MenuIcon.js'
import { OrderChartCard } from './workplace/OrderChartCard.js'

function greeting(hour: number): MessageKey {
  if (hour < 6) return 'greeting.night'
  if (hour < 12) return 'greeting.morning'
  if (hour < 14) return 'greeting.noon'
  if (hour < 18) return 'greeting.afternoon'
  return 'greeting.evening'
}

const NAME_SLOT = '\u0000'

/** The workplace: a welcome, the collected menus as quick entries, and the order chart. */
export default function Workplace() {
  const { user } = useSession()
  const title = useSystemTitle()
  const navigate = useNavigate()
  const t = useT()
  const { data: menus } = useMenus()
  const collected = flattenFunctions(menus).filter((e) => e.menu.isCollect && e.menu.path)
  const now = dayjs()
  const name = user?.name || user?.username || ''
  // The user's name is data, written as it was entered: it sits in its own element within the sentence.
  const [beforeName, afterName = ''] = t('workplace.welcome', { greeting: t(greeting(now.hour())), name: NAME_SLOT, title }).split(NAME_SLOT)

  return (
    <div className="workplace">
      <Card className="workplace-welcome">
        <div className="workplace-welcome-body">
          <Avatar size={64} icon={<UserOutlined />} style={{ backgroundColor: '#1890ff', flex: 'none' }} />
          <div>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {beforeName}
              <span className="workplace-user-name">{name}</span>
              {afterName}
            </Typography.Title>
            <Typography.Text type="secondary">{t('workplace.today', { date: now.format(t('workplace.dateFormat')) })}</Typography.Text>
          </div>
        </div>
      </Card>
      <Card
        title={
          <span>
            <AppstoreOutlined /> {t('workplace.shortcuts')}
          </span>
        }
        style={{ marginTop: 16 }}
      >
        {collected.length === 0 ? (
          <Empty description={t('workplace.noShortcuts')} />
        ) : (
          <Row gutter={[16, 16]} role="list" aria-label={t('workplace.shortcuts')}>
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
      <OrderChartCard />
    </div>
  )
}
