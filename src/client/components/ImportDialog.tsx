import { useEffect, useRef, useState } from 'react'
import { Alert, Button, Modal, Progress, Space, Typography, Upload } from 'antd'
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons'
import type { UploadProps } from 'antd'
import { ApiError, download, request } from '../api/http.js'
import { call } from '../api/call.js'
import { component, type ImportTask } from '../../shared/contracts/component.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { useFeedback } from './feedback.js'
import { useTr } from '../i18n/use-tr.js'
import {
  IMPORT_ACCEPT,
  IMPORT_TYPE_MESSAGE,
  failureTitle,
  isExcelFile,
  pollImportTask,
  progressView,
  recalledTask,
  rememberTask,
  successText,
} from './import-progress.js'

type UploadRequestOption = Parameters<NonNullable<UploadProps['customRequest']>>[0]

export interface ImportDialogProps {
  entity: EntityModel
  open: boolean
  onClose: () => void
  /** Called once when an import has written its rows (the list reloads). */
  onImported: () => void
  /** An import of the screen other than `{base}/import` (e.g. `/purchase/order/import/paytype`): upload path, template at `{path}/template`. */
  path?: string
  /** The dialog's title when not `导入{entity.label}`. */
  title?: string
  /** What an upload does, when not the entity import's (by code, row by row): e.g. a document import's groups. */
  rule?: string
}

/**
 * The Excel import of one entity (000 §2 Other dialogs): download the template, upload one .xls/.xlsx
 * file (`POST {base}/import`, answering a task id), then the task progress polled every 500 ms
 * (`GET /component/import/task?id`; also served without the region prefix, called here under it like
 * every call of this client) until it has finished: the failing rows when it has errors, a success
 * line and a list reload otherwise. Width 40% (000 §9). The running task's id is kept in sessionStorage:
 * opened again (after a page reload too) the dialog re-attaches to it; 取消导入 stops it
 * (`DELETE /component/import/task?id`, not in the spec: see modules/component).
 */
export default function ImportDialog({ entity, open, onClose, onImported, path, title, rule }: ImportDialogProps) {
  const tr = useTr()
  const { message } = useFeedback()
  const url = path ?? `${entity.file.api?.base ?? ''}/import`
  const [downloading, setDownloading] = useState(false)
  const [uploading, setUploading] = useState(false)
  const [taskId, setTaskId] = useState<string | null>(null)
  const [task, setTask] = useState<ImportTask | null>(null)
  const [cancelling, setCancelling] = useState(false)
  const imported = useRef(onImported)
  imported.current = onImported

  // A new dialog starts empty, or re-attaches to the task still running for this list.
  useEffect(() => {
    if (!open) return
    const running = recalledTask(url)
    setTaskId(running)
    setTask(running ? { process: 0, successProcess: 0, tipMsgs: [], hasError: false, finished: false, data: null } : null)
  }, [open, url])

  useEffect(() => {
    if (!taskId) return
    return pollImportTask(
      () => call(component.importTask, { id: taskId }),
      (next) => {
        setTask(next)
        if (!next.finished) return
        rememberTask(url, null)
        setCancelling(false)
        if (next.data) imported.current()
        if (!next.hasError) message.success(successText(next))
      },
      // Shown by the api layer; polling stops. Only a task that is gone is forgotten: a poll aborted
      // by a page reload must leave the id for the reloaded page to re-attach.
      (error) => {
        if (error instanceof ApiError && error.code === 404) rememberTask(url, null)
      },
    )
  }, [taskId, message, url])

  const cancel = async () => {
    if (!taskId) return
    setCancelling(true)
    try {
      await call(component.cancelImportTask, { id: taskId })
    } catch {
      // Shown by the api layer (the task had already finished).
      setCancelling(false)
    }
  }

  const polling = Boolean(taskId) && !task?.finished

  const downloadTemplate = async () => {
    setDownloading(true)
    try {
      await download('get', `${url}/template`)
    } catch {
      // Shown by the api layer.
    } finally {
      setDownloading(false)
    }
  }

  const upload = async ({ file, onSuccess, onError }: UploadRequestOption) => {
    const body = new FormData()
    body.append('file', file as Blob, (file as File).name)
    setUploading(true)
    setTask(null)
    setTaskId(null)
    try {
      // The server reads the whole file before it answers: no time limit for a large one.
      const id = await request<string>('post', url, { body, timeout: false })
      rememberTask(url, id)
      onSuccess?.(id)
      setTask({ process: 0, successProcess: 0, tipMsgs: [], hasError: false, finished: false, data: null })
      setTaskId(id)
    } catch (error) {
      onError?.(error as Error)
    } finally {
      setUploading(false)
    }
  }

  const view = task && progressView(task)

  return (
    <Modal
      open={open}
      title={title ?? tr(`导入${entity.label}`)}
      width="40%"
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={<Button onClick={onClose}>{tr('关闭')}</Button>}
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <div>
          <Typography.Paragraph style={{ marginBottom: 8 }}>{tr('1. 下载模板，按模板填写数据（带“*”的列必须填写，填写说明见模板中的“说明”页）。')}</Typography.Paragraph>
          <Button icon={<DownloadOutlined aria-hidden />} loading={downloading} onClick={() => void downloadTemplate()}>
            {tr('下载模板')}
          </Button>
        </div>
        <div>
          <Typography.Paragraph style={{ marginBottom: 8 }}>{tr('2. 上传填写好的文件（仅支持xls、xlsx格式），')}{rule ?? tr('编号已存在时修改该数据，否则新增；有误的行不导入并列出其行号，其余各行照常导入。')}</Typography.Paragraph>
          <Upload
            accept={IMPORT_ACCEPT}
            maxCount={1}
            showUploadList={false}
            disabled={uploading || polling}
            beforeUpload={(file) => {
              if (!isExcelFile(file.name)) {
                message.error(tr(IMPORT_TYPE_MESSAGE))
                return Upload.LIST_IGNORE
              }
              return true
            }}
            customRequest={(options) => void upload(options)}
          >
            <Button type="primary" icon={<UploadOutlined aria-hidden />} loading={uploading} disabled={polling}>
              {tr('上传文件')}
            </Button>
          </Upload>
        </div>
        {view && (
          <Space style={{ width: '100%' }} styles={{ item: { flex: polling ? undefined : 1 } }}>
            <Progress percent={view.percent} status={view.status} aria-label={tr('导入进度')} style={{ minWidth: 240 }} />
            {polling && (
              <Button danger size="small" loading={cancelling} onClick={() => void cancel()}>
                {tr('取消导入')}
              </Button>
            )}
          </Space>
        )}
        {task?.finished && !task.hasError && <Alert type="success" showIcon message={successText(task)} />}
        {task?.finished && task.hasError && (
          <Alert
            type="error"
            showIcon
            message={failureTitle(task)}
            description={
              <ul className="import-tips" style={{ maxHeight: 240, overflowY: 'auto', margin: 0, paddingLeft: 20 }}>
                {task.tipMsgs.map((tip, i) => (
                  <li key={i}>{tip}</li>
                ))}
              </ul>
            }
          />
        )}
      </Space>
    </Modal>
  )
}
