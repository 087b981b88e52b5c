import { Image, Upload } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import type { UploadFile } from 'antd/es/upload/interface'
import { call } from '../../api/call.js'
import { component } from '../../../shared/contracts/component.js'
import { IMAGE_ACCEPT } from '../../components/ImageUpload.js'
import { useFeedback } from '../../components/feedback.js'
import type { Attachment } from './report-api.js'
import { useTr } from '../../i18n/use-tr.js'

const MAX_FILES = 20
const MAX_BYTES = 5 * 1024 * 1024
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/bmp', 'image/gif']

/** 票据附件: up to 20 receipt photos stored by `POST /component/upload/image`; read-only shows thumbnails. */
export default function ReceiptUpload({ value, onChange, readOnly }: { value?: Attachment[] | null; onChange?: (v: Attachment[]) => void; readOnly?: boolean }) {
  const tr = useTr()
  const { message } = useFeedback()
  const files = value ?? []
  if (readOnly)
    return files.length ? (
      <Image.PreviewGroup>
        {files.map((f) => (
          <Image key={f.url} src={f.url} width={96} alt={f.name} style={{ marginRight: 8 }} />
        ))}
      </Image.PreviewGroup>
    ) : (
      <span>—</span>
    )
  const fileList: UploadFile[] = files.map((f, i) => ({ uid: `${i}-${f.url}`, name: f.name, status: 'done', url: f.url }))
  return (
    <Upload
      aria-label={tr('票据附件')}
      listType="picture-card"
      accept={IMAGE_ACCEPT}
      multiple
      fileList={fileList}
      beforeUpload={async (file) => {
        if (!IMAGE_TYPES.includes(file.type)) {
          message.error(tr('只能上传png、jpeg、bmp、jpg、gif格式的图片'))
          return Upload.LIST_IGNORE
        }
        if (file.size > MAX_BYTES) {
          message.error(tr('图片大小不能超过5MB！'))
          return Upload.LIST_IGNORE
        }
        const body = new FormData()
        body.append('file', file)
        try {
          const url = await call(component.uploadImage, body)
          onChange?.([...(value ?? []), { name: file.name, url }].slice(0, MAX_FILES))
        } catch {
          // The api layer has shown the server's message.
        }
        return false
      }}
      onRemove={(file) => {
        onChange?.(files.filter((f) => f.url !== file.url))
        return true
      }}
    >
      {files.length >= MAX_FILES ? null : (
        <div>
          <PlusOutlined aria-hidden />
          <div style={{ marginTop: 8 }}>{tr('上传票据')}</div>
        </div>
      )}
    </Upload>
  )
}
