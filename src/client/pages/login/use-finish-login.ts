import { useLocation, useNavigate } from 'react-router-dom'
import { useSWRConfig } from 'swr'
import { STORAGE } from '../../api/http.js'
import { saveSession } from '../../app/session.js'
import { clearTabs, WORKPLACE_PATH } from '../../app/tab-store.js'
import type { LoginAnswer } from '../../../shared/contracts/auth.js'

/** Where to go after signing in: the page that sent the user here, else the workplace. */
export function redirectTarget(state: unknown): string {
  const from = (state as { from?: string } | null)?.from
  return from && from.startsWith('/') && !from.startsWith('/login') ? from : WORKPLACE_PATH
}

/** Stores the session (token, admin.user, admin.roles) and enters the shell. */
export function useFinishLogin(): (answer: LoginAnswer) => Promise<void> {
  const navigate = useNavigate()
  const location = useLocation()
  const { mutate } = useSWRConfig()
  return async (answer) => {
    // Another account may have used this browser tab: drop its cached menus, reads and tabs.
    await mutate(() => true, undefined, { revalidate: false })
    localStorage.removeItem(STORAGE.routes)
    clearTabs()
    saveSession(answer)
    navigate(redirectTarget(location.state), { replace: true })
  }
}
