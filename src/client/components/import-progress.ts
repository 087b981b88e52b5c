import { term, tr } from '../i18n/use-tr.js'
import type { ImportTask } from '../../shared/contracts/component.js'

/** The spec's upload rule (000 §5): Excel import only .xls and .xlsx. */
export const IMPORT_ACCEPT = '.xls,.xlsx'
export const IMPORT_TYPE_MESSAGE = term('仅支持上传xls、xlsx格式的文件！')
/** 000 §9: import progress polled every 500 ms. */
export const IMPORT_POLL_MS = 500

/**
 * Polls an import task every IMPORT_POLL_MS: the first read one interval after the start, each next one
 * an interval after the previous answer (never two in flight), until the task is finished, a read fails
 * (`failed`, once; the api layer has shown why) or the answered stop function is called.
 */
export function pollImportTask(read: () => Promise<ImportTask>, seen: (task: ImportTask) => void, failed: (error: unknown) => void): () => void {
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const poll = async () => {
    let next: ImportTask
    try {
      next = await read()
    } catch (error) {
      failed(error)
      return
    }
    if (stopped) return
    seen(next)
    if (!next.finished && !stopped) timer = setTimeout(() => void poll(), IMPORT_POLL_MS)
  }
  timer = setTimeout(() => void poll(), IMPORT_POLL_MS)
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}

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
  const parts = [tr(`共${d.total ?? 0}条`)]
  if (d.created) parts.push(tr(`新增${d.created}条`))
  if (d.modified) parts.push(tr(`修改${d.modified}条`))
  return tr(`导入成功！${parts.join('，')}`)
}

/**
 * The running task of a list's import is kept in sessionStorage, so the dialog re-attaches to it after
 * a page reload (the task runs on the server whatever the page does).
 */
const taskKey = (base: string) => `import.task:${base}`
export function rememberTask(base: string, id: string | null): void {
  try {
    if (id) sessionStorage.setItem(taskKey(base), id)
    else sessionStorage.removeItem(taskKey(base))
  } catch {
    // Storage unavailable (private mode): the dialog simply does not re-attach.
  }
}
export function recalledTask(base: string): string | null {
  try {
    return sessionStorage.getItem(taskKey(base))
  } catch {
    return null
  }
}

/** The title over tipMsgs: whether anything was written (rows that passed are kept unless all or nothing). */
export function failureTitle(task: ImportTask): string {
  const written = (task.data?.created ?? 0) + (task.data?.modified ?? 0)
  if (written) return tr(`部分数据未导入（已导入${written}条，其余见下方说明），请修改出错的行后重新上传这些行：`)
  return tr('导入未完成，未导入任何数据，请修改后重新上传：')
}
