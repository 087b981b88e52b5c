import { Button, Dropdown } from 'antd'
import { TranslationOutlined } from '@ant-design/icons'
import { useSettings, type Language } from '../app/settings.js'
import { chooseLanguage } from '../i18n/load-catalogues.js'
import { useT } from '../i18n/use-t.js'

/** Each language names itself, so a user can always find their own. */
export const LANGUAGE_NAMES: Record<Language, string> = { CN: '简体中文', HK: '繁體中文', US: 'English' } // i18n-ignore

/** Header language menu (000 §2: CN, HK, US); the choice is a personal setting. */
export function LanguageSwitch() {
  const { language } = useSettings()
  const t = useT()
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: (Object.keys(LANGUAGE_NAMES) as Language[]).map((key) => ({ key, label: LANGUAGE_NAMES[key] })),
        onClick: ({ key }) => void chooseLanguage(key as Language),
      }}
    >
      <Button type="text" className="shell-header-icon" aria-label={t('lang.switch')} icon={<TranslationOutlined />} />
    </Dropdown>
  )
}
