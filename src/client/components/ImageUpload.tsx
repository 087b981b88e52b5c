import { Image, Upload } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import type { UploadFile } from 'antd/es/upload/interface'
import { request } from '../api/http.js'
import { useFeedback } from './feedback.js'
import { useTr } from '../i18n/use-tr.js'

export interface ImageUploadProps {
  /** The image: its URL, or a data URL when there is no upload call. */
  value?: string | null
  /** The call that stores the file (multipart `file`) and answers its URL. */
  uploadUrl?: string
  onChange?: (value: string | null) => void
  disabled?: boolean
  readOnly?: boolean
  readPretty?: boolean
  id?: string
  'aria-label'?: string
}

/** The spec's image types (000 §5 Uploads: png, jpeg, bmp, jpg, gif, one only). */
export const IMAGE_ACCEPT = '.png,.jpeg,.bmp,.jpg,.gif'
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/bmp', 'image/gif']
export const MAX_IMAGE_BYTES = 1024 * 1024

const readAsDataUrl = (file: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(file)
  })

/**
 * One image: sent to the entity's upload call when it declares one (the value is then the stored
 * file's URL), otherwise kept in the record as a data URL; the 1 MB cap keeps rows and answers small.
 */
export default function ImageUpload({ value, onChange, uploadUrl, disabled, readOnly, readPretty, id, ...rest }: ImageUploadProps) {
  const tr = useTr()
  const { message } = useFeedback()
  if (readPretty) return value ? <Image src={value} width={104} /> : null
  const fileList: UploadFile[] = value ? [{ uid: 'current', name: 'image', status: 'done', url: value }] : []
  const locked = disabled || readOnly
  return (
    <Upload
      id={id}
      aria-label={rest['aria-label']}
      listType="picture-card"
      accept={IMAGE_ACCEPT}
      maxCount={1}
      disabled={locked}
      fileList={fileList}
      beforeUpload={async (file) => {
        if (!IMAGE_TYPES.includes(file.type)) {
          message.error(tr('只能上传png、jpeg、bmp、jpg、gif格式的图片'))
          return Upload.LIST_IGNORE
        }
        if (file.size > MAX_IMAGE_BYTES) {
          message.error(tr('图片大小不能超过1MB'))
          return Upload.LIST_IGNORE
        }
        if (uploadUrl) {
          const body = new FormData()
          body.append('file', file)
          try {
            onChange?.(await request<string>('post', uploadUrl, { body }))
          } catch {
            // The api layer has shown the server's message.
          }
        } else onChange?.(await readAsDataUrl(file))
        // The value is set above; antd must not upload on its own.
        return false
      }}
      onRemove={() => {
        onChange?.(null)
        return true
      }}
      showUploadList={{ showPreviewIcon: false }}
    >
      {fileList.length || locked ? null : (
        <div>
          <PlusOutlined aria-hidden />
          <div style={{ marginTop: 8 }}>{tr('上传图片')}</div>
        </div>
      )}
    </Upload>
  )
}
