import type { RequestContext } from './request-context.js'

/**
 * Contexts that have proved they may set their own user's password without the reset key: the
 * personal centre (the old password was checked) and password recovery (the code was spent). Any
 * other write of a password, the generic `PUT /system/user` included, needs `system:user:password`.
 * A WeakSet, so a proof is tied to one context object and cannot be forged from request data.
 */
const proven = new WeakSet<RequestContext>()

export function withPasswordProof(ctx: RequestContext): RequestContext {
  const copy = { ...ctx }
  proven.add(copy)
  return copy
}

export const hasPasswordProof = (ctx: RequestContext) => proven.has(ctx)
