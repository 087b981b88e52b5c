import { Button, Popover, Space, Typography } from 'antd'
import type { EntityRow } from '../entity-api.js'
import { useTr } from '../../i18n/use-tr.js'

export interface PickerFooterProps {
  multiple: boolean
  selected: readonly EntityRow[]
  /** Text of a selected row in the 查看 list. */
  describe: (row: EntityRow) => string
  onCancel: () => void
  onClear: () => void
  onConfirm: () => void
}

/** Buttons of every picker (取消, 清空, 确定); multiple pickers also show "已选择 N 项" and a 查看 list. */
export default function PickerFooter({ multiple, selected, describe, onCancel, onClear, onConfirm }: PickerFooterProps) {
  const tr = useTr()
  return (
    <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
      <div>
        {multiple && (
          <Space>
            <span>{tr(`已选择 ${selected.length} 项`)}</span>
            <Popover
              trigger="click"
              title={tr('已选择')}
              content={
                selected.length ? (
                  <ul style={{ maxHeight: 300, overflow: 'auto', margin: 0, paddingLeft: 18 }}>
                    {selected.map((row) => (
                      <li key={row.id}>{describe(row)}</li>
                    ))}
                  </ul>
                ) : (
                  <Typography.Text type="secondary">{tr('暂无')}</Typography.Text>
                )
              }
            >
              <Typography.Link>{tr('查看')}</Typography.Link>
            </Popover>
          </Space>
        )}
      </div>
      <Space>
        <Button onClick={onCancel}>{tr('取消')}</Button>
        <Button danger onClick={onClear}>
          {tr('清空')}
        </Button>
        <Button type="primary" onClick={onConfirm}>
          {tr('确定')}
        </Button>
      </Space>
    </div>
  )
}
