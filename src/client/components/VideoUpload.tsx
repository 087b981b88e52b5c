import { Button, Upload } from 'antd'
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons'
import { call } from '../api/call.js'
import { component } from '../../shared/contracts/component.js'
import { request } from '../api/http.js'
import { VIDEO_EXTENSIONS } from '../../shared/look/ui-constants.js'
import { useFeedback } from './feedback.js'
import { useTr } from '../i18n/use-tr.js'
import VideoPlayer from './VideoPlayer.js'
import type { ImageUploadProps } from './ImageUpload.js'

/** Like an image field's: the value is the stored video's URL; without `uploadUrl` it goes to `POST /component/upload/video`. */
export type VideoUploadProps = ImageUploadProps

const ACCEPT = VIDEO_EXTENSIONS.map((e) => `.${e}`).join(',')
const extensionOf = (name: string) => name.slice(name.lastIndexOf('.') + 1).toLowerCase()

/**
 * One video (000 §5 Uploads: avi, wmv, mpeg, mp4, m4v, mov, asf, flv, f4v, rmvb, rm, 3gp, vob), stored
 * through the upload call; the value is its URL, played with the spec's rates.
 */
export default function VideoUpload({ value, onChange, uploadUrl, disabled, readOnly, readPretty, id, ...rest }: VideoUploadProps) {
  const tr = useTr()
  const { message } = useFeedback()
  if (readPretty) return value ? <VideoPlayer src={value} /> : null
  const locked = disabled || readOnly
  return (
    <div className="video-upload">
      {value && <VideoPlayer src={value} />}
      {!locked && (
        <Upload
          id={id}
          accept={ACCEPT}
          maxCount={1}
          showUploadList={false}
          beforeUpload={async (file) => {
            if (!(VIDEO_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) {
              message.error(tr('只能上传avi、wmv、mpeg、mp4、m4v、mov、asf、flv、f4v、rmvb、rm、3gp、vob格式的视频！'))
              return Upload.LIST_IGNORE
            }
            const body = new FormData()
            body.append('file', file)
            try {
              onChange?.(uploadUrl ? await request<string>('post', uploadUrl, { body }) : await call(component.uploadVideo, body))
            } catch {
              // The api layer has shown the server's message.
            }
            // The value is set above; antd must not upload on its own.
            return false
          }}
        >
          <Button icon={<UploadOutlined aria-hidden />} aria-label={rest['aria-label']}>
            {value ? tr('重新上传') : tr('上传视频')}
          </Button>
        </Upload>
      )}
      {value && !locked && (
        <Button type="link" danger icon={<DeleteOutlined aria-hidden />} onClick={() => onChange?.(null)}>
          {tr('删除')}
        </Button>
      )}
    </div>
  )
}
