import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, api, download, downloadName, onApiError, queryPage, REQUEST_TIMEOUT_MS } from '../../src/client/api/http.js'
import { PAGE_SIZE_OPTIONS, tablePagination } from '../../src/client/components/pager.js'

/**
 * The browser's request layer as the spec describes it (000 §7, §9; 001 §8, §9), run in Node with the
 * network replaced: request timeout 30000 ms and its message, `hideError`, a blob call's error read as
 * JSON, the download named from the last path segment, and grid paging (20, options 5/15/20/50/100).
 */

const NETWORK_ERROR = '网络请求错误，请稍后重试！'

/** What the page's fetch was asked, and the answer it gives. */
let sent: Request[] = []
let answer: (request: Request) => Promise<Response>

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

beforeEach(() => {
  sent = []
  answer = async () => json({ code: 200, msg: '操作成功！', data: null })
  const store = new Map<string, string>()
  vi.stubGlobal('localStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v), removeItem: (k: string) => store.delete(k) })
  // The page resolves '/cloud-api/…' against its own origin; Node's Request needs that origin said.
  const NodeRequest = globalThis.Request
  vi.stubGlobal(
    'Request',
    class extends NodeRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' && input.startsWith('/') ? new URL(input, 'http://erp.test') : input, init)
      }
    },
  )
  vi.stubGlobal('fetch', (input: Request) => {
    sent.push(input)
    return answer(input)
  })
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

/** Collects what the shell would show (the api layer's error listeners). */
function shown(): { errors: ApiError[]; stop: () => void } {
  const errors: ApiError[] = []
  const stop = onApiError((e) => errors.push(e))
  return { errors, stop }
}

describe('request timeout (001 §9: 30000 ms, then 网络请求错误，请稍后重试！)', () => {
  it('is still waiting at 29999 ms and fails with the network message at 30000 ms', async () => {
    expect(REQUEST_TIMEOUT_MS).toBe(30000)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    answer = (request) => new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))
    const outcome = api.get('/slow').then(
      () => 'answered',
      (e: unknown) => e,
    )
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1)
    expect(await Promise.race([outcome, Promise.resolve('pending')])).toBe('pending')
    await vi.advanceTimersByTimeAsync(1)
    const error = await outcome
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).message).toBe(NETWORK_ERROR)
    expect(sent[0].signal.aborted).toBe(true)
  })
})

describe('errors reach the shell unless hideError (000 §7)', () => {
  it('shows the server message of a failed call, and nothing for a call with hideError; both still reject', async () => {
    answer = async () => json({ code: 400, msg: '请输入编号', data: null }, 400)
    const { errors, stop } = shown()
    await expect(api.post('/stock/adjust/reason', {})).rejects.toMatchObject({ code: 400, message: '请输入编号' })
    await expect(api.post('/stock/adjust/reason', {}, { hideError: true })).rejects.toMatchObject({ code: 400, message: '请输入编号' })
    stop()
    expect(errors.map((e) => e.message)).toEqual(['请输入编号'])
  })

  it('an answer that is no envelope is the network message', async () => {
    answer = async () => new Response('<html>bad gateway</html>', { status: 502 })
    await expect(api.get('/x', undefined, { hideError: true })).rejects.toMatchObject({ code: 502, message: NETWORK_ERROR })
  })
})

describe('blob calls (001 §8)', () => {
  let clicked: { href: string; download: string }[]
  beforeEach(() => {
    clicked = []
    vi.stubGlobal('document', {
      createElement: () => {
        const a = { href: '', download: '', click: () => clicked.push({ href: a.href, download: a.download }) }
        return a
      },
    })
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL: () => 'blob:file', revokeObjectURL: () => undefined }))
  })

  it('names the file after the last path segment when no Content-Disposition is sent', async () => {
    answer = async () => new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } })
    await download('get', '/basedata/product/import/商品导入模板.xlsx', { query: { a: 1 } })
    expect(clicked).toEqual([{ href: 'blob:file', download: '商品导入模板.xlsx' }])
    expect(downloadName(null, '/purchase/order/export?x=1')).toBe('export')
    expect(downloadName("attachment; filename*=UTF-8''%E9%87%87%E8%B4%AD.xlsx", '/purchase/order/export')).toBe('采购.xlsx')
  })

  it('reads an error sent as JSON instead of the file, with HTTP 200 or an error status, and downloads nothing', async () => {
    for (const status of [200, 400]) {
      answer = async () => json({ code: 400, msg: '导出数据不能超过10万条', data: null }, status)
      const { errors, stop } = shown()
      await expect(download('post', '/purchase/order/export')).rejects.toMatchObject({ code: 400, message: '导出数据不能超过10万条' })
      stop()
      expect(errors.map((e) => e.message)).toEqual(['导出数据不能超过10万条'])
    }
    expect(clicked).toEqual([])
  })
})

describe('grid paging (000 §9: page size 20, options 5, 15, 20, 50, 100)', () => {
  it('asks page 1 of 20 rows unless told otherwise, and sends only the conditions that carry a value', async () => {
    answer = async () => json({ code: 200, msg: '', data: { pageIndex: 1, pageSize: 20, totalCount: 0, datas: [] } })
    await queryPage('/basedata/supplier/query', { code: 'S', name: '', available: undefined })
    const asked = new URL(sent[0].url).searchParams
    expect(Object.fromEntries(asked)).toEqual({ code: 'S', pageIndex: '1', pageSize: '20' })
  })

  it('offers the spec sizes with the total, and a new size goes back to page 1', () => {
    expect(PAGE_SIZE_OPTIONS).toEqual([5, 15, 20, 50, 100])
    const moved: unknown[] = []
    const pager = tablePagination({ index: 3, size: 20 }, 95, (p) => moved.push(p))
    expect(pager).toMatchObject({ current: 3, pageSize: 20, total: 95, showSizeChanger: true, pageSizeOptions: [5, 15, 20, 50, 100] })
    expect(pager.showTotal?.(95, [41, 60])).toBe('共 95 条')
    pager.onChange?.(4, 20)
    pager.onChange?.(4, 50)
    expect(moved).toEqual([{ index: 4, size: 20 }, { index: 1, size: 50 }])
  })
})
