import type { AnswerOf, AnyCall, CallContract, FileAnswer, ParamsOf, QueryAndBody } from '../../shared/contracts/call.js'
import { download, request, type RequestOptions } from './http.js'

/** Options of a call: those of a request, without what the contract decides (the query and the body). */
export type CallOptions = Omit<RequestOptions, 'query' | 'json'>

/** How a contract's params travel on the wire. */
export function callRequest<C extends AnyCall>(contract: C, params: ParamsOf<C>, options: CallOptions = {}): RequestOptions {
  if (contract.paramsIn === 'both') {
    const { query, body } = params as QueryAndBody<Record<string, unknown>, unknown>
    return { ...options, query, json: body }
  }
  if (contract.paramsIn === 'query') return { ...options, query: params as Record<string, unknown> | undefined }
  // A file upload posts the form data itself.
  if ((params as unknown) instanceof FormData) return { ...options, body: params }
  return { ...options, json: params }
}

/** One call of the API through its contract, unwrapped to the typed answer. */
export function call<P, A>(contract: CallContract<P, A>, ...args: P extends void ? [params?: P, options?: CallOptions] : [params: P, options?: CallOptions]): Promise<A> {
  const [params, options] = args
  const method = contract.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'
  return request<A>(method, contract.path, { ...callRequest(contract, params as ParamsOf<typeof contract>, options), ...(contract.reads ? { reads: true } : {}) })
}


/** A call whose answer is a file: saved by the browser under the server's file name. */
export function callDownload<P>(contract: CallContract<P, FileAnswer>, params: P, options: CallOptions = {}): Promise<void> {
  return download(contract.method === 'POST' ? 'post' : 'get', contract.path, callRequest(contract, params, options))
}

export type { AnswerOf, ParamsOf }
