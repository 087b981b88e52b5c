import { lazy, useState } from 'react'
import { useSWRConfig } from 'swr'
import { Button, Card, Space, Typography, Upload } from 'antd'
import { UploadOutlined } from '@ant-design/icons'
import { Permission } from '../../app/Permission.js'
import { useFeedback } from '../../components/feedback.js'
import { useTr } from '../../i18n/use-tr.js'
import { swApi } from './sw-api.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const EntityPage = lazy(() => import('../../runtime/EntityPage.js'))

/** 文件收纳箱: my files and those sent to me (the entity list), upload into the box. */
export default function FileBoxPage() {
  const tr = useTr()
  const { message } = useFeedback()
  const { mutate } = useSWRConfig()
  // The list's query is cached by SWR under ['entity-list', entity, …]: refresh it in place.
  const reload = () => void mutate((key) => Array.isArray(key) && key[0] === 'entity-list' && key[1] === 'swFileBox')
  const [busy, setBusy] = useState(false)
  const upload = async (file: File) => {
    setBusy(true)
    try {
      await swApi.uploadFile(file)
      message.success(tr('上传成功'))
      reload()
    } catch {
      // shown by the API layer
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="sw-file-box">
      <Card size="small" style={{ marginBottom: 12 }}>
        <Space>
          <Permission value={[PERMISSION.smartWork.fileBox.upload]}>
            <Upload showUploadList={false} beforeUpload={(file) => (void upload(file), false)}>
              <Button type="primary" icon={<UploadOutlined />} loading={busy}>
                {tr('上传文件')}
              </Button>
            </Upload>
          </Permission>
          <Typography.Text type="secondary">{tr('支持Office文档、PDF、图片、压缩包、文本和MP4，单个文件不超过20MB。')}</Typography.Text>
        </Space>
      </Card>
      <EntityPage entityName="swFileBox" />
    </div>
  )
}
