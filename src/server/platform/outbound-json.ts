import { invalid } from './errors.js'

/**
 * One call to an outside service (map, DingTalk) answering JSON, bounded by a deadline. Whatever goes
 * wrong on the way (no network, a timeout, not JSON) is the user's `failure` message, never a 500.
 */
export async function outboundJson(url: string, init: RequestInit & { timeoutMs: number }, failure: string): Promise<Record<string, unknown>> {
  const { timeoutMs, ...rest } = init
  let response: Response
  try {
    response = await fetch(url, { ...rest, signal: AbortSignal.timeout(timeoutMs) })
  } catch {
    throw invalid(failure)
  }
  const body: unknown = await response.json().catch(() => undefined)
  if (!response.ok || !body || typeof body !== 'object' || Array.isArray(body)) throw invalid(failure)
  return body as Record<string, unknown>
}
