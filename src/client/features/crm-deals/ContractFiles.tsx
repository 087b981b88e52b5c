import { useCallback, useEffect, useState } from 'react'
import { Button, List, Space, Typography, Upload } from 'antd'
import { ConfirmLink } from '../../components/ConfirmLink.js'
import { PaperClipOutlined, UploadOutlined } from '@ant-design/icons'
import { hasPermission, useSession } from '../../app/session.js'
import { useFeedback } from '../../components/feedback.js'
import { call } from '../../api/call.js'
import { crmDeals, type ContractFile } from '../../../shared/contracts/crm-deals.js'
import { downloadContractFile } from './crm-api.js'
import { useTr } from '../../i18n/use-tr.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

const size = (n: number | null) => (n === null ? '' : n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`)

/** 合同附件: upload to the store, record on the contract (createFile), download with the token, remove (fileRemoveId). */
export default function ContractFiles({ contractId, readOnly }: { contractId: string; readOnly?: boolean }) {
  const tr = useTr()
  const session = useSession()
  const { message } = useFeedback()
  const canWrite = !readOnly && hasPermission(session, [PERMISSION.crm.contract.add, PERMISSION.crm.contract.modify])
  const [files, setFiles] = useState<ContractFile[]>([])
  const [busy, setBusy] = useState(false)
  const load = useCallback(() => {
    call(crmDeals.files, { contractId }).then(setFiles, () => undefined)
  }, [contractId])
  useEffect(load, [load])

  const upload = async (file: File) => {
    setBusy(true)
    try {
      const body = new FormData()
      body.append('file', file)
      const url = await call(crmDeals.upload, body)
      await call(crmDeals.createFile, { contractId, url, fileName: file.name, fileSize: file.size })
      message.success(tr(`${file.name} 上传成功`))
      load()
    } catch {
      // shown by the API layer
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="crm-contract-files">
      {canWrite && (
        <Upload showUploadList={false} beforeUpload={(file) => (void upload(file), false)} accept=".pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.txt,.csv,.png,.jpg,.jpeg,.gif,.bmp,.zip,.rar,.7z">
          <Button icon={<UploadOutlined />} loading={busy}>
            {tr('上传附件')}
          </Button>
          <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
            {tr('单个文件不超过20MB')}
          </Typography.Text>
        </Upload>
      )}
      <List
        size="small"
        locale={{ emptyText: tr('暂无附件') }}
        dataSource={files}
        renderItem={(f) => (
          <List.Item
            actions={[
              <Button key="d" type="link" size="small" onClick={() => downloadContractFile(f.url).catch(() => undefined)}>
                {tr('下载')}
              </Button>,
              ...(canWrite
                ? [
                    <ConfirmLink key="r" title={tr(`确定删除附件 ${f.fileName}？`)} onConfirm={() => call(crmDeals.removeFile, { id: f.id }).then(load, () => undefined)}>
                      {tr('删除')}
                    </ConfirmLink>,
                  ]
                : []),
            ]}
          >
            <Space>
              <PaperClipOutlined />
              <span>{f.fileName}</span>
              <Typography.Text type="secondary">{size(f.fileSize)}</Typography.Text>
              <Typography.Text type="secondary">
                {f.createBy} {f.createTime}
              </Typography.Text>
            </Space>
          </List.Item>
        )}
      />
    </div>
  )
}
