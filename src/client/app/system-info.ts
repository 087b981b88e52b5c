import { useEffect } from 'react'
import { useCall } from './use-call.js'
import { useTr } from '../i18n/use-tr.js'
import { auth } from '../../shared/contracts/auth.js'

/** Until `/auth/init` answers (the server's SYSTEM_TITLE, default in src/server/config.ts). */
export const DEFAULT_TITLE = '星云客户关系管理系统' // i18n-ignore

/** `GET /auth/init` (public): login options and the system name. */
export function useSystemInit() {
  return useCall(auth.init, undefined, {
    hideError: true,
    signedOut: true,
    swr: { revalidateOnFocus: false, revalidateIfStale: false, shouldRetryOnError: false },
  })
}

/** The system name in the chosen language when it is the product's own (a catalogue entry), else as configured. */
export function useSystemTitle(): string {
  const tr = useTr()
  return tr(useSystemInit().data?.title || DEFAULT_TITLE)
}

/** The document title: system name followed by the route name (000 §2). */
export function usePageTitle(routeName: string | undefined): void {
  const system = useSystemTitle()
  useEffect(() => {
    document.title = routeName ? `${system} - ${routeName}` : system
  }, [system, routeName])
}
