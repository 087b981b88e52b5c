import { useMemo, useState } from 'react'
import { AutoComplete, Input } from 'antd'
import { SearchOutlined } from '@ant-design/icons'
import { useNavigate } from 'react-router-dom'
import { isExternal, type MenuEntry } from '../app/menus.js'
import { useT } from '../i18n/use-t.js'

/** Header menu search: function menus that are not hidden, by their title path, jumping on choice (000 §2). */
export function MenuSearch({ entries }: { entries: MenuEntry[] }) {
  const navigate = useNavigate()
  const t = useT()
  const [value, setValue] = useState('')
  const all = useMemo(
    () =>
      entries
        .filter((e) => e.menu.path && !e.menu.hidden)
        .map((e) => ({ value: e.menu.path as string, label: e.titles.join(' / '), external: isExternal(e.menu.path) })),
    [entries],
  )
  const keyword = value.trim().toLowerCase()
  const options = (keyword ? all.filter((o) => o.label.toLowerCase().includes(keyword)) : all).slice(0, 50)
  return (
    <AutoComplete
      className="shell-menu-search"
      value={value}
      options={options.map((o) => ({ value: o.value, label: o.label }))}
      onChange={(v) => setValue(v)}
      onSelect={(path: string) => {
        setValue('')
        if (isExternal(path)) window.open(path, '_blank', 'noopener')
        else navigate(path)
      }}
      notFoundContent={keyword ? t('menu.search.none') : null}
      popupMatchSelectWidth={320}
      defaultActiveFirstOption
    >
      <Input aria-label={t('menu.search')} placeholder={t('menu.search')} prefix={<SearchOutlined />} allowClear />
    </AutoComplete>
  )
}
