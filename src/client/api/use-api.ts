import useSWR, { type SWRConfiguration } from 'swr'
import { useSession } from '../app/session.js'
import { api, queryPage, type PageQuery, type RequestOptions } from './http.js'

/**
 * A read through swr: `GET path` with the query, keyed by the session's token as well so another
 * account never sees the previous one's answer. `path` null skips the call.
 */
export function useApi<T>(path: string | null, query?: Record<string, unknown>, options: RequestOptions & { swr?: SWRConfiguration<T> } = {}) {
  const { token } = useSession()
  const { swr, ...request } = options
  return useSWR<T>(path && token ? [path, token, JSON.stringify(query ?? {})] : null, () => api.get<T>(path!, query, request), swr)
}

/** A paged read (`{datas, totalCount}`) through swr. */
export function usePage<T>(path: string | null, query: PageQuery = {}, options: RequestOptions = {}) {
  const { token } = useSession()
  return useSWR(path && token ? [path, token, 'page', JSON.stringify(query)] : null, () => queryPage<T>(path!, query, options), { keepPreviousData: true })
}
