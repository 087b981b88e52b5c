/**
 * A call of the API described once: method, path (under /cloud-api), params and answer. The server
 * registers its route from the contract and the browser calls through it, so both sides are checked
 * against the same types: a field renamed in a contract fails the type check of route and screen alike.
 */
export type CallMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * Where the params travel: `query` (the query string), `body` (JSON), or `both` (params are
 * `{ query, body }`, for the few calls that name the record in the query and post a body).
 * By default GET sends the query and the other methods a JSON body.
 */
export type ParamsIn = 'query' | 'body' | 'both'

export interface CallContract<Params, Answer> {
  readonly method: CallMethod
  readonly path: string
  readonly paramsIn: ParamsIn
  /**
   * A call that only reads though it is not a GET (a picker's labels, a custom list's query): the browser
   * does not count it as a write that makes the screens of hidden tabs stale (client/api/write-generation.ts).
   */
  readonly reads?: true
  /** Types only: never set; carries Params and Answer so `ParamsOf`/`AnswerOf` can read them. */
  readonly types?: { params: Params; answer: Answer }
}

export function defineCall<Params = void, Answer = null>(method: CallMethod, path: string, paramsIn?: ParamsIn): CallContract<Params, Answer> {
  return { method, path, paramsIn: paramsIn ?? (method === 'GET' ? 'query' : 'body') }
}

/** A POST that only reads (`reads`): its params travel as `defineCall`'s would. */
export function defineRead<Params = void, Answer = null>(path: string, paramsIn?: ParamsIn): CallContract<Params, Answer> {
  return { ...defineCall<Params, Answer>('POST', path, paramsIn), reads: true }
}

export type AnyCall = CallContract<any, any>
export type ParamsOf<C> = C extends CallContract<infer P, unknown> ? P : never
export type AnswerOf<C> = C extends CallContract<unknown, infer A> ? A : never

/**
 * The answer of a call that sends a file (an export, a download) instead of the JSON envelope: the
 * browser saves it through `callDownload`; the server's route sends the bytes itself.
 */
export interface FileAnswer {
  readonly file: true
}

/** Params of a call that names the record in the query and posts a body (`paramsIn: 'both'`). */
export interface QueryAndBody<Q, B> {
  query: Q
  body: B
}

/** A paged answer of the spec (`{pageIndex, pageSize, totalCount, datas}`). */
export interface Page<T> {
  pageIndex: number
  pageSize: number
  totalCount: number
  datas: T[]
}

/** What a list reads of a paged answer: the page's rows and how many match (some calls of the spec answer only these). */
export type PageRows<T> = Pick<Page<T>, 'datas' | 'totalCount'>

/** The paging params of a list call. */
export interface PageParams {
  pageIndex?: number
  pageSize?: number
}
