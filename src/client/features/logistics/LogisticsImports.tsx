import { useState } from 'react'
import { Button } from 'antd'
import { CloudUploadOutlined, UploadOutlined } from '@ant-design/icons'
import { useMeta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import ImportDialog from '../../components/ImportDialog.js'

/** The two imports of the logistics list and the keys that open them (as the server's routes). */
const IMPORTS = [
  { key: 'sheets', label: '导入物流单', title: '导入物流单', url: '/logistics/sheet/import', icon: <UploadOutlined aria-hidden />, keys: ['logistics:sheet:import'] },
  {
    key: 'delivery',
    label: '批量Excel发货',
    title: '导入物流单发货信息',
    url: '/logistics/sheet/import/delivery',
    icon: <CloudUploadOutlined aria-hidden />,
    keys: ['logistics:sheet:import-delivery', 'logistics:sheet:delivery'],
  },
] as const

/** 导入物流单 and 批量Excel发货 on the logistics list: each row of the file stands alone. */
export default function LogisticsImports({ reload }: { reload: () => void }) {
  const meta = useMeta()
  const can = usePermission()
  const [open, setOpen] = useState<(typeof IMPORTS)[number] | undefined>()
  const entity = meta?.entityOrUndefined('logisticsSheet')
  if (!entity) return null
  return (
    <>
      {IMPORTS.filter((i) => can([...i.keys])).map((i) => (
        <Button key={i.key} icon={i.icon} onClick={() => setOpen(i)}>
          {i.label}
        </Button>
      ))}
      {open && <ImportDialog entity={entity} open path={open.url} title={open.title} rule="每行单独导入，有误的行不导入并提示原因，其余各行照常导入。" onClose={() => setOpen(undefined)} onImported={reload} />}
    </>
  )
}
