import { useEffect, useRef } from 'react'
import { App } from 'antd'
import { useLocation } from 'react-router-dom'
import { onApiError, onDownloadProgress } from '../api/http.js'
import { clearSession, getSession } from '../app/session.js'
import { clearTabs } from '../app/tab-store.js'
import { useT } from '../i18n/use-t.js'

const PUBLIC_PATHS = ['/login', '/forget-psw', '/403', '/404', '/500', '/online-excel']

/**
 * One place that shows API errors (001 §8): 401 asks to sign in again, everything else is a message.
 * Requests made with `hideError` never arrive here.
 */
export function ApiErrorBridge() {
  const { message, modal } = App.useApp()
  const t = useT()
  const location = useLocation()
  const pathRef = useRef(location.pathname)
  pathRef.current = location.pathname
  const reloginOpen = useRef(false)

  useEffect(
    () =>
      onApiError((error) => {
        const onPublicPage = PUBLIC_PATHS.includes(pathRef.current)
        if (error.code === 401 && getSession().token && !onPublicPage) {
          // Parallel requests fail together; one dialog is enough.
          if (reloginOpen.current) return
          reloginOpen.current = true
          modal.confirm({
            title: t('relogin.title'),
            content: t('relogin.content'),
            okText: t('relogin.ok'),
            cancelText: t('relogin.cancel'),
            // 001 §8: 重新登录 clears the login and reloads; the reloaded app finds no token and shows /login.
            onOk: () => {
              clearSession()
              clearTabs()
              window.location.reload()
            },
            afterClose: () => {
              reloginOpen.current = false
            },
          })
          return
        }
        void message.error(error.message)
      }),
    [message, modal, t],
  )
  // Large exports stream for a while: say how far the download is (api/http.ts download).
  useEffect(
    () =>
      onDownloadProgress(({ rows, bytes, done }) => {
        const key = 'export-download-progress'
        if (done) return void message.destroy(key)
        void message.loading({ key, duration: 0, content: t('export.progress', { rows, mb: (bytes / 1024 / 1024).toFixed(1) }) })
      }),
    [message, t],
  )
  return null
}
