import ky, { HTTPError, type Options } from 'ky'
import { currentLocale } from '../i18n/current-locale.js'
import { translate } from '../i18n/messages.js'
import { noteWrite } from './write-generation.js'

/** Local-storage keys of the spec (000 §3 "Client-held data"). */
export const STORAGE = { token: 'X-Auth-Token', user: 'admin.user', roles: 'admin.roles', routes: 'admin.routes' } as const

export const API_PREFIX = '/cloud-api'
/** 网络请求错误，请稍后重试！ in the chosen language (the shell's catalogue: this module is on the login route). */
export const defaultError = () => translate(currentLocale(), 'error.network')
/** 001 §9. */
export const REQUEST_TIMEOUT_MS = 30000

/** Grid paging of the spec (000 §9): a page is 20 rows unless the caller asks for another size. */
export const DEFAULT_PAGE_SIZE = 20

/** The spec's envelope; `data` is what callers receive. */
export interface Envelope<T> {
  code: number
  msg: string
  data: T
}

export interface Page<T> {
  pageIndex: number
  pageSize: number
  totalCount: number
  datas: T[]
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly field?: string,
  ) {
    super(message)
  }
}

type Listener = (error: ApiError) => void
const listeners = new Set<Listener>()
/** The shell shows errors and the 401 relogin confirm; requests with `hideError` skip it. */
export function onApiError(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export const getToken = () => localStorage.getItem(STORAGE.token)

const client = ky.create({
  prefixUrl: API_PREFIX,
  timeout: REQUEST_TIMEOUT_MS,
  retry: 0,
  hooks: {
    beforeRequest: [
      (request) => {
        const token = getToken()
        if (token) request.headers.set('X-Auth-Token', token)
        // The server answers its messages in the language chosen in the personal settings, not the browser's.
        request.headers.set('Accept-Language', currentLocale())
      },
    ],
  },
})

export interface RequestOptions {
  query?: Record<string, unknown>
  json?: unknown
  form?: Record<string, string>
  body?: FormData
  /** Do not show the error to the user (the caller handles it). */
  hideError?: boolean
  /** A call that only reads though it is not a GET (shared/contracts/call.ts `reads`): not counted as a write. */
  reads?: boolean
  /** Milliseconds, or false for none (a large upload or a streamed export takes longer than REQUEST_TIMEOUT_MS). */
  timeout?: number | false
}

/** Drops conditions without a value (the spec: only conditions that carry a value are sent). */
export function cleanQuery(query: Record<string, unknown> = {}): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue
    out[k] = Array.isArray(v) ? v.join(',') : String(v)
  }
  return out
}

/** Any failure as an ApiError: the message from `msg` or `message`, else 网络请求错误，请稍后重试！ (001 §8). */
async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof HTTPError) {
    try {
      // Read as text: a blob call's error body is JSON text too.
      const body = JSON.parse(await error.response.clone().text()) as { code?: number; msg?: string; message?: string; field?: string }
      return new ApiError(body.code ?? error.response.status, body.msg || body.message || defaultError(), body.field)
    } catch {
      return new ApiError(error.response.status || 500, defaultError())
    }
  }
  if (error instanceof ApiError) return error
  return new ApiError(500, defaultError())
}

function kyOptions(options: RequestOptions): Options {
  const o: Options = { searchParams: cleanQuery(options.query) }
  if (options.json !== undefined) o.json = options.json
  if (options.form) o.body = new URLSearchParams(options.form)
  if (options.body) o.body = options.body
  if (options.timeout !== undefined) o.timeout = options.timeout
  return o
}

/** One call of the API, unwrapped to `data`; errors are ApiError with the server's Chinese message. */
export async function request<T>(method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, options: RequestOptions = {}): Promise<T> {
  try {
    const envelope = await client(path.replace(/^\//, ''), { method, ...kyOptions(options) }).json<Envelope<T>>()
    if (envelope.code !== 200) throw new ApiError(envelope.code, envelope.msg || defaultError())
    if (method !== 'get' && !options.reads) noteWrite()
    return envelope.data
  } catch (e) {
    const error = await toApiError(e)
    if (!options.hideError) for (const l of listeners) l(error)
    throw error
  }
}

/** A JSON document the server sends as is, not in the envelope (the OpenAPI document). */
export async function requestDocument<T>(path: string): Promise<T> {
  try {
    return await client(path.replace(/^\//, '')).json<T>()
  } catch (e) {
    const error = await toApiError(e)
    for (const l of listeners) l(error)
    throw error
  }
}

/** The file name of a blob answer: the Content-Disposition header, else the last path segment. */
export function downloadName(disposition: string | null, path: string): string {
  const match = /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(disposition ?? '')
  if (match) return decodeURIComponent((match[1] ?? match[2]).trim())
  return path.split('?')[0].split('/').filter(Boolean).pop() ?? 'download'
}

/**
 * A blob answer (001 §8): downloads it, named from the Content-Disposition header or the last path
 * segment. An error sent as JSON instead of the file (the envelope with a code other than 200) is
 * parsed and reported like any other.
 */
export async function download(method: 'get' | 'post', path: string, options: RequestOptions = {}): Promise<void> {
  let rows = 0
  let shown = 0
  try {
    // Exports stream their rows: no time limit, and the progress of a large one is shown (the server
    // says the row count in X-Total-Count before the first byte; the file size is not known ahead).
    const response = await client(path.replace(/^\//, ''), {
      method,
      timeout: false,
      ...kyOptions(options),
      onDownloadProgress: (progress) => {
        const now = Date.now()
        if (rows < LARGE_EXPORT_ROWS || now - shown < 300) return
        shown = now
        for (const l of progressListeners) l({ rows, bytes: progress.transferredBytes, done: false })
      },
    })
    rows = Number(response.headers.get('x-total-count') ?? 0)
    const blob = await response.blob()
    if (shown) for (const l of progressListeners) l({ rows, bytes: blob.size, done: true })
    if (/application\/json/i.test(response.headers.get('content-type') ?? '')) {
      const envelope = JSON.parse(await blob.text()) as Partial<Envelope<unknown>> & { message?: string }
      if (envelope.code !== undefined && envelope.code !== 200) throw new ApiError(envelope.code, envelope.msg || envelope.message || defaultError())
    }
    const url = URL.createObjectURL(blob)
    const a = document.createElement('a')
    a.href = url
    a.download = downloadName(response.headers.get('content-disposition'), path)
    a.click()
    setTimeout(() => URL.revokeObjectURL(url), 0)
  } catch (e) {
    if (shown) for (const l of progressListeners) l({ rows, bytes: 0, done: true })
    const error = await toApiError(e)
    if (!options.hideError) for (const l of listeners) l(error)
    throw error
  }
}

/** Exports of at least this many rows show their download progress. */
export const LARGE_EXPORT_ROWS = 5000

export interface DownloadProgress {
  /** Rows of the export (X-Total-Count). */
  rows: number
  bytes: number
  done: boolean
}
type ProgressListener = (p: DownloadProgress) => void
const progressListeners = new Set<ProgressListener>()
/** The shell shows the progress of large exports (a message with the rows and the bytes so far). */
export function onDownloadProgress(listener: ProgressListener): () => void {
  progressListeners.add(listener)
  return () => progressListeners.delete(listener)
}

export interface PageQuery {
  pageIndex?: number
  pageSize?: number
  [condition: string]: unknown
}

/** A paged list call: `pageIndex`/`pageSize` (1 and 20 unless given) and the conditions that carry a value. */
export function queryPage<T>(path: string, query: PageQuery = {}, options?: RequestOptions): Promise<Page<T>> {
  return request<Page<T>>('get', path, { ...options, query: { ...query, pageIndex: query.pageIndex ?? 1, pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE } })
}

export const api = {
  get: <T>(path: string, query?: Record<string, unknown>, o?: RequestOptions) => request<T>('get', path, { ...o, query }),
  post: <T>(path: string, json?: unknown, o?: RequestOptions) => request<T>('post', path, { ...o, json }),
  put: <T>(path: string, json?: unknown, o?: RequestOptions) => request<T>('put', path, { ...o, json }),
  patch: <T>(path: string, json?: unknown, o?: RequestOptions) => request<T>('patch', path, { ...o, json }),
  delete: <T>(path: string, json?: unknown, o?: RequestOptions) => request<T>('delete', path, { ...o, json }),
  page: queryPage,
  download,
}
