import { lazy, Suspense, type ReactNode } from 'react'
import { Navigate, Route, Routes, useLocation } from 'react-router-dom'
import { PageLoading } from '../shell/PageLoading.js'
import { WORKPLACE_PATH } from '../app/tab-store.js'
import { useSession } from '../app/session.js'

const Login = lazy(() => import('../pages/Login.js'))
const ForgetPassword = lazy(() => import('../pages/ForgetPassword.js'))
const OnlineExcel = lazy(() => import('../features/smart-work/OnlineExcel.js'))
const ShellLayout = lazy(() => import('./SignedIn.js'))
// The full-screen 403/404/500 pages are rare: the login route does not carry antd's Result for them.
const ErrorPage = lazy(() => import('../pages/ErrorPage.js'))

/**
 * Public: /login, /forget-psw, /403, /404, /500, /online-excel. Every other route needs a token; without
 * one the user goes to /login (000 §2), and comes back to the page asked for after signing in.
 */
function RequireAuth({ children }: { children: ReactNode }) {
  const { token } = useSession()
  const location = useLocation()
  if (!token) return <Navigate to="/login" replace state={location.pathname === '/' ? undefined : { from: location.pathname + location.search }} />
  return <>{children}</>
}

export function AppRoutes() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Routes>
        <Route path="/login" element={<Login />} />
        <Route path="/forget-psw" element={<ForgetPassword />} />
        <Route path="/403" element={<ErrorPage kind="403" />} />
        <Route path="/404" element={<ErrorPage kind="404" />} />
        <Route path="/500" element={<ErrorPage kind="500" />} />
        <Route path="/online-excel" element={<OnlineExcel />} />
        <Route path="/" element={<RequireAuth>{<Navigate to={WORKPLACE_PATH} replace />}</RequireAuth>} />
        {/* The shell resolves fixed pages and function menus itself and shows 404 for the rest. */}
        <Route
          path="/*"
          element={
            <RequireAuth>
              <ShellLayout />
            </RequireAuth>
          }
        />
      </Routes>
    </Suspense>
  )
}
