import type { ReactNode } from 'react'
import { Button, Space } from 'antd'
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons'
import { useTr } from '../i18n/use-tr.js'

export interface SearchButtonsProps {
  /** Without it 查询 submits the surrounding form (Enter searches too). */
  onSearch?: () => void
  /** Shows 重置. */
  onReset?: () => void
  /** More buttons after them (e.g. 导出). */
  children?: ReactNode
}

/** 查询 and 重置 of every search form (lists, pickers, custom lists, hand-written screens). */
export default function SearchButtons({ onSearch, onReset, children }: SearchButtonsProps) {
  const tr = useTr()
  return (
    <Space style={{ marginBottom: 12 }}>
      <Button type="primary" icon={<SearchOutlined aria-hidden />} htmlType={onSearch ? 'button' : 'submit'} onClick={onSearch}>
        {tr('查询')}
      </Button>
      {onReset && (
        <Button icon={<ReloadOutlined aria-hidden />} onClick={onReset}>
          {tr('重置')}
        </Button>
      )}
      {children}
    </Space>
  )
}
