import type { ReactNode } from 'react'
import { permits } from './authority.js'
import { useSession } from './session.js'

/** Shows its children only to holders of the permission (e.g. `['base-data:supplier:add']`). */
export function Permission({ value, children }: { value: readonly string[]; children: ReactNode }) {
  const session = useSession()
  return permits(session, value) ? <>{children}</> : null
}

/** The no-permission variant: removes its children for holders of the permission. */
export function NoPermission({ value, children }: { value: readonly string[]; children: ReactNode }) {
  const session = useSession()
  return permits(session, value) ? null : <>{children}</>
}
