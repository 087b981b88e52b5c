import { useState } from 'react'
import { Button, Modal, Result, Space, Spin } from 'antd'
import { useCall } from '../app/use-call.js'
import { lowcodeRuntime } from '../../shared/contracts/lowcode.js'
import CustomListHost from './CustomListHost.js'
import type { ListRow } from '../../shared/contracts/lowcode-wire.js'
import type { CustomSelectorDialogProps } from './selector-dialog-slot.js'
import { useTr } from '../i18n/use-tr.js'
import { dialogWidth } from './dialog-width.js'

/** A picker dialog over a custom list (`GET /gen/api/custom/selector/config?id`); double-click picks a row. */
export default function CustomSelectorDialog({ selectorId, open, multiple, onCancel, onConfirm }: CustomSelectorDialogProps) {
  const tr = useTr()
  const { data: config, error } = useCall(open && lowcodeRuntime.selectorConfig, { id: selectorId }, { swr: { revalidateOnFocus: false } })
  const [chosen, setChosen] = useState<ListRow[]>([])
  return (
    <Modal
      open={open}
      title={config?.dialogTittle || config?.name || tr('请选择')}
      width={dialogWidth(config?.dialogWidth)}
      onCancel={onCancel}
      destroyOnClose
      footer={
        <Space>
          <Button onClick={onCancel}>{tr('取消')}</Button>
          <Button type="primary" disabled={!config || !chosen.length} onClick={() => config && onConfirm(chosen, config)}>
            {tr('确定')}
          </Button>
        </Space>
      }
    >
      {error ? (
        <Result status="warning" title={tr('选择器加载失败')} />
      ) : !config ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : (
        <CustomListHost
          listId={config.customListId}
          selectMode={multiple ? 'multiple' : 'single'}
          hideButtons
          onSelectionChange={setChosen}
          onRowDoubleClick={(row) => {
            if (!multiple) onConfirm([row], config)
          }}
        />
      )}
    </Modal>
  )
}
