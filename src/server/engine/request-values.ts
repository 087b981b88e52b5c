import { invalid } from '../platform/errors.js'

/** A JSON object body, or a clear 400 (never a 5xx) for anything else. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>
  throw invalid('请求参数格式错误')
}

/** Ids from the shapes clients send: `["a","b"]`, `{ids: [...]}`, `{id: "a"}` or `?id=a`. */
export function idsFrom(body: unknown, query?: Record<string, unknown>): string[] {
  const pick = (v: unknown): string[] | undefined =>
    Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? v.split(',') : undefined
  const ids =
    pick(body) ??
    (body && typeof body === 'object' ? pick((body as Record<string, unknown>).ids) ?? pick((body as Record<string, unknown>).id) : undefined) ??
    pick(query?.ids) ??
    pick(query?.id)
  if (!ids?.length || ids.some((id) => !id.trim())) throw invalid('请选择数据', 'ids')
  return ids
}
