import { Button, Dropdown } from 'antd'
import { TranslationOutlined } from '@ant-design/icons'
import { localeOfSetting, locales } from '../../shared/i18n/locales.js'
import { updateSettings, useSettings, type Language } from './settings.js'
import { loadLocale } from '../i18n/load-locale.js'
import { useT } from '../i18n/use-t.js'

/** Every language of the table, each named in itself so a user can always find their own. */
export const languageOptions = () => locales().map((l) => ({ value: l.setting, label: l.name }))

/** Switches the language once its texts are there, so no screen shows half-translated in between. */
export async function chooseLanguage(language: Language): Promise<void> {
  await loadLocale(localeOfSetting(language)).catch(() => undefined)
  updateSettings({ language })
}

/** Header language menu (000 §2); the choice is a personal setting. */
export function LanguageSwitch() {
  const { language } = useSettings()
  const t = useT()
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: languageOptions().map(({ value, label }) => ({ key: value, label })),
        onClick: ({ key }) => void chooseLanguage(key),
      }}
    >
      <Button type="text" className="shell-header-icon" aria-label={t('lang.switch')} icon={<TranslationOutlined />} />
    </Dropdown>
  )
}
