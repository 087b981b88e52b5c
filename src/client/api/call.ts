import type { AnswerOf, AnyCall, CallContract, ParamsOf, QueryAndBody } from '../../shared/contracts/call.js'
import { request, type RequestOptions } from './http.js'

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
  return request<A>(method, contract.path, callRequest(contract, params as ParamsOf<typeof contract>, options))
}

export type { AnswerOf, ParamsOf }
