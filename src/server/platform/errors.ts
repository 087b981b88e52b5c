/**
 * The one error type of the server. `status` is the HTTP status; `code` is the envelope code (the
 * spec's client reads `code`, 200 meaning success). Messages are Chinese and shown to the user as is.
 */
export class BizError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message)
  }
  get code(): number {
    return this.status
  }
}

export const invalid = (msg: string, field?: string) => new BizError(400, msg, field)
export const relogin = (msg = '登录已过期，请重新登录！') => new BizError(401, msg)
export const forbidden = (msg = '无权限') => new BizError(403, msg)
export const notFound = (msg = '数据不存在！') => new BizError(404, msg)
