import type { CSSProperties } from 'react'
import { Button, Space } from 'antd'
import { useTr } from '../i18n/use-tr.js'

/**
 * The four buttons over a tree of checkboxes (a role's menus, a token's calls): 全选, 全不选, 展开, 折叠.
 * `checkDisabled` greys the two that change the choice (the admin role holds everything).
 */
export function TreeToolbar({
  onCheckAll,
  onCheckNone,
  onExpand,
  onCollapse,
  checkDisabled,
  style,
}: {
  onCheckAll: () => void
  onCheckNone: () => void
  onExpand: () => void
  onCollapse: () => void
  checkDisabled?: boolean
  style?: CSSProperties
}) {
  const tr = useTr()
  return (
    <Space wrap style={style}>
      <Button size="small" disabled={checkDisabled} onClick={onCheckAll}>
        {tr('全选')}
      </Button>
      <Button size="small" disabled={checkDisabled} onClick={onCheckNone}>
        {tr('全不选')}
      </Button>
      <Button size="small" onClick={onExpand}>
        {tr('展开')}
      </Button>
      <Button size="small" onClick={onCollapse}>
        {tr('折叠')}
      </Button>
    </Space>
  )
}
