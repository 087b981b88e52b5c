import { Button, Card, Form, Radio, Switch } from 'antd'
import { resetSettings, updateSettings, useSettings, type Language, type LayoutMode, type ThemeMode } from '../app/settings.js'

/** Personal settings, applied at once and kept in this browser's local storage. */
export default function Settings() {
  const settings = useSettings()
  return (
    <Card title="个人设置" className="settings-page">
      <Form layout="horizontal" labelCol={{ flex: '100px' }} style={{ maxWidth: 640 }}>
        <Form.Item label="导航布局">
          <Radio.Group
            aria-label="导航布局"
            optionType="button"
            value={settings.layout}
            onChange={(e) => updateSettings({ layout: e.target.value as LayoutMode })}
            options={[
              { value: 'side', label: '侧边菜单' },
              { value: 'head', label: '顶部菜单' },
              { value: 'mixed', label: '混合菜单' },
            ]}
          />
        </Form.Item>
        <Form.Item label="主题模式">
          <Radio.Group
            aria-label="主题模式"
            optionType="button"
            value={settings.theme}
            onChange={(e) => updateSettings({ theme: e.target.value as ThemeMode })}
            options={[
              { value: 'light', label: '亮色' },
              { value: 'dark', label: '暗色' },
              { value: 'night', label: '夜间' },
            ]}
          />
        </Form.Item>
        <Form.Item label="语言">
          <Radio.Group
            aria-label="语言"
            optionType="button"
            value={settings.language}
            onChange={(e) => updateSettings({ language: e.target.value as Language })}
            options={[
              { value: 'CN', label: '简体中文' },
              { value: 'HK', label: '繁體中文' },
              { value: 'US', label: 'English' },
            ]}
          />
        </Form.Item>
        <Form.Item label="锁定标签栏">
          <Switch aria-label="锁定标签栏" checked={settings.tabsLocked} onChange={(tabsLocked) => updateSettings({ tabsLocked })} />
        </Form.Item>
        <Form.Item label=" " colon={false}>
          <Button onClick={() => resetSettings()}>恢复默认</Button>
        </Form.Item>
      </Form>
    </Card>
  )
}
