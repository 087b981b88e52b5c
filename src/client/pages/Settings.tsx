import { Button, Card, Form, Radio, Switch } from 'antd'
import { resetSettings, updateSettings, useSettings, type LayoutMode, type ThemeMode } from '../app/settings.js'
import { useT } from '../i18n/use-t.js'
import { chooseLanguage, languageOptions } from '../app/LanguageSwitch.js'

/** Personal settings, applied at once and kept in this browser's local storage. */
export default function Settings() {
  const settings = useSettings()
  const t = useT()
  return (
    <Card title={t('page.settings')} className="settings-page">
      <Form layout="horizontal" labelCol={{ flex: '120px' }} style={{ maxWidth: 640 }}>
        <Form.Item label={t('settings.layout')}>
          <Radio.Group
            aria-label={t('settings.layout')}
            optionType="button"
            value={settings.layout}
            onChange={(e) => updateSettings({ layout: e.target.value as LayoutMode })}
            options={[
              { value: 'side', label: t('settings.layout.side') },
              { value: 'head', label: t('settings.layout.head') },
              { value: 'mixed', label: t('settings.layout.mixed') },
            ]}
          />
        </Form.Item>
        <Form.Item label={t('settings.theme')}>
          <Radio.Group
            aria-label={t('settings.theme')}
            optionType="button"
            value={settings.theme}
            onChange={(e) => updateSettings({ theme: e.target.value as ThemeMode })}
            options={[
              { value: 'light', label: t('settings.theme.light') },
              { value: 'dark', label: t('settings.theme.dark') },
              { value: 'night', label: t('settings.theme.night') },
            ]}
          />
        </Form.Item>
        <Form.Item label={t('settings.language')}>
          <Radio.Group
            aria-label={t('settings.language')}
            optionType="button"
            value={settings.language}
            onChange={(e) => void chooseLanguage(e.target.value as string)}
            options={languageOptions()}
          />
        </Form.Item>
        <Form.Item label={t('settings.tabsLocked')}>
          <Switch aria-label={t('settings.tabsLocked')} checked={settings.tabsLocked} onChange={(tabsLocked) => updateSettings({ tabsLocked })} />
        </Form.Item>
        <Form.Item label=" " colon={false}>
          <Button onClick={() => resetSettings()}>{t('settings.reset')}</Button>
        </Form.Item>
      </Form>
    </Card>
  )
}
