import useSWR, { type SWRConfiguration } from 'swr'
import type { CallContract } from '../../shared/contracts/call.js'
import { useSession } from './session.js'
import { call, type CallOptions } from '../api/call.js'

/**
 * The swr key of a call: its path first (so `mutate((key) => key[0] === path)` reloads every read of
 * it), the session's token (another account never sees the previous one's answer) and the params.
 */
export const callKey = (path: string, token: string | null, params: unknown) => [path, token, JSON.stringify(params ?? null)] as const

/** Whether an swr key is a read of `path` (optionally with params for which `match` holds). */
export function isCallKey(key: unknown, path: string, match?: (params: unknown) => boolean): boolean {
  if (!Array.isArray(key) || key[0] !== path) return false
  return !match || match(JSON.parse(String(key[2] ?? 'null')))
}

/** Whether an swr key is a read of any call with a param equal to `value` (a record's page reloads every read about it). */
export function callKeyMentions(key: unknown, value: string): boolean {
  if (!Array.isArray(key) || key.length !== 3 || typeof key[0] !== 'string' || !key[0].startsWith('/') || typeof key[2] !== 'string') return false
  try {
    const params: unknown = JSON.parse(key[2])
    return Boolean(params) && typeof params === 'object' && Object.values(params as object).includes(value)
  } catch {
    return false
  }
}

export interface UseCallOptions<A> extends CallOptions {
  swr?: SWRConfiguration<A>
  /** A public call (the login page's): read without a session too. */
  signedOut?: boolean
}

/**
 * Both read hooks, in a tab pane, wait while their tab is hidden and read again when it is shown after a
 * write made elsewhere (pane-freshness.ts).
 *
 * A read that is more than one call (a screen's several calls put together), keyed like `useCall`:
 * by `key` and the session's token. A null key (or no session) skips it.
 */
export function useSessionRead<T>(key: readonly unknown[] | null | false, read: () => Promise<T>, swr?: SWRConfiguration<T>) {
  const { token } = useSession()
  return useSWR<T>(key && token ? [...key, token] : null, read, swr)
}

/**
 * Every data read of a screen: the call of `contract` with `params` through swr, keyed by the
 * session. A null contract (or no session) skips the call.
 */
export function useCall<P, A>(contract: CallContract<P, A> | null | false | undefined, params: P, options: UseCallOptions<A> = {}) {
  const { token } = useSession()
  const { swr, signedOut, ...callOptions } = options
  const active = Boolean(contract && (token || signedOut))
  return useSWR<A>(active ? callKey((contract as CallContract<P, A>).path, token, params) : null, () => (call as (c: CallContract<P, A>, p: P, o: CallOptions) => Promise<A>)(contract as CallContract<P, A>, params, callOptions), swr)
}
