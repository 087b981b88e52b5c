import { lazy, useState } from 'react'
import { useSWRConfig } from 'swr'
import { Button, Card, Space, Typography, Upload } from 'antd'
import { UploadOutlined } from '@ant-design/icons'
import { Permission } from '../../app/Permission.js'
import { useFeedback } from '../../components/feedback.js'
import { useTr } from '../../i18n/use-tr.js'
import { editorUrl, swApi } from './sw-api.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const EntityPage = lazy(() => import('../../runtime/EntityPage.js'))

/** 在线Excel: my sheets and those sent to me (the entity list), and 导入Excel into a new sheet. */
export default function OnlineExcelListPage() {
  const tr = useTr()
  const { message } = useFeedback()
  const { mutate } = useSWRConfig()
  // The list's query is cached by SWR under ['entity-list', entity, …]: refresh it in place.
  const reload = () => void mutate((key) => Array.isArray(key) && key[0] === 'entity-list' && key[1] === 'swOnlineExcel')
  const [busy, setBusy] = useState(false)
  const importFile = async (file: File) => {
    setBusy(true)
    try {
      const id = await swApi.importExcel(file)
      message.success(tr('导入成功'))
      reload()
      window.open(editorUrl(id), '_blank')
    } catch {
      // shown by the API layer
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="sw-online-excel">
      <Card size="small" style={{ marginBottom: 12 }}>
        <Space>
          <Permission value={[PERMISSION.smartWork.onlineExcel.add]}>
            <Upload showUploadList={false} accept=".xlsx" beforeUpload={(file) => (void importFile(file), false)}>
              <Button icon={<UploadOutlined />} loading={busy}>
                {tr('导入Excel')}
              </Button>
            </Upload>
          </Permission>
          <Typography.Text type="secondary">{tr('导入的.xlsx文件成为一个新的在线Excel；点击“编辑”在新窗口中打开表格。')}</Typography.Text>
        </Space>
      </Card>
      <EntityPage entityName="swOnlineExcel" />
    </div>
  )
}
