import { useState } from 'react'
import { Alert, Button } from 'antd'
import { NodeIndexOutlined } from '@ant-design/icons'
import EntityPage from '../runtime/EntityPage.js'
import { usePermission } from '../app/session.js'
import { PERMISSION } from '../../shared/generated/permission-keys.js'
import { useTr } from '../i18n/use-tr.js'
import CustomListWizard from './CustomListWizard.js'

/** 自定义列表: the generic screen of its entity, with the guided flow from a table to a menu over it. */
export default function CustomListScreen() {
  const tr = useTr()
  const can = usePermission()
  const [open, setOpen] = useState(false)
  const guided = can(PERMISSION.development.customList.add) && can(PERMISSION.development.dataObj.add) && can(PERMISSION.system.menu.add)
  const guide = guided && (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 12 }}
      message={tr('从一张数据表到菜单上的列表：选择数据表，勾选显示的列并预览数据，再放到菜单上')}
      action={
        <Button type="primary" icon={<NodeIndexOutlined aria-hidden />} onClick={() => setOpen(true)}>
          {tr('向导新建')}
        </Button>
      }
    />
  )
  return (
    <>
      <EntityPage entityName="genCustomList" before={guide} />
      {open && <CustomListWizard open onClose={() => setOpen(false)} />}
    </>
  )
}
