/** The spec's import task progress (000 §3), as `GET /component/import/task?id` answers it. */
export interface ImportTask {
  process: number
  successProcess: number
  tipMsgs: string[]
  hasError: boolean
  finished: boolean
  data: { total?: number; created?: number; modified?: number } | null
}

/** The spec's upload rule (000 §5): Excel import only .xls and .xlsx. */
export const IMPORT_ACCEPT = '.xls,.xlsx'
export const IMPORT_TYPE_MESSAGE = '仅支持上传xls、xlsx格式的文件！'
/** 000 §9: import progress polled every 500 ms. */
export const IMPORT_POLL_MS = 500

export const isExcelFile = (name: string) => /\.(xls|xlsx)$/i.test(name.trim())

export interface ProgressView {
  percent: number
  /** 000 §4: active while polling, exception if errors, 100% (success) when finished. */
  status: 'active' | 'exception' | 'success'
}

export function progressView(task: ImportTask): ProgressView {
  if (task.finished && task.hasError) return { percent: Math.min(100, Math.max(0, Math.round(task.process))), status: 'exception' }
  if (task.finished) return { percent: 100, status: 'success' }
  return { percent: Math.min(99, Math.max(0, Math.round(task.process))), status: 'active' }
}

/** The line shown after a successful import. */
export function successText(task: ImportTask): string {
  const d = task.data ?? {}
  const parts = [`共${d.total ?? 0}条`]
  if (d.created) parts.push(`新增${d.created}条`)
  if (d.modified) parts.push(`修改${d.modified}条`)
  return `导入成功！${parts.join('，')}`
}
