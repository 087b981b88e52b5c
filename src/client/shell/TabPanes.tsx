import { Suspense } from 'react'
import { Route, Routes } from 'react-router-dom'
import { Spin } from 'antd'
import ErrorPage from '../pages/ErrorPage.js'
import { PageErrorBoundary } from './PageErrorBoundary.js'
import type { ResolvedPage } from './page-registry.js'
import type { PageTab } from '../app/tab-store.js'

interface Props {
  tabs: PageTab[]
  activeKey: string | undefined
  resolve: (key: string) => ResolvedPage | undefined
  /** Menus not loaded yet: a tab that does not resolve may still be valid. */
  menusReady: boolean
}

export const PageLoading = () => (
  <div className="page-loading" role="status" aria-busy="true">
    <Spin />
  </div>
)

/**
 * Every open tab stays mounted and is only hidden while inactive, so lists keep their filters and
 * scroll position; pages whose menu sets noCache are mounted only while shown.
 */
export function TabPanes({ tabs, activeKey, resolve, menusReady }: Props) {
  return (
    <>
      {tabs.map((tab) => {
        const active = tab.key === activeKey
        const page = resolve(tab.key)
        if (!active && (!page || page.noCache)) return null
        return (
          <div key={tab.key} className="shell-pane" hidden={!active} data-page={tab.key}>
            {tab.refreshing ? (
              <PageLoading />
            ) : page ? (
              <PageErrorBoundary key={tab.version}>
                <Suspense fallback={<PageLoading />}>
                  <Routes location={tab.fullPath}>
                    <Route path={page.pattern} element={page.render()} />
                    <Route path="*" element={page.render()} />
                  </Routes>
                </Suspense>
              </PageErrorBoundary>
            ) : menusReady ? (
              <ErrorPage kind="404" embedded />
            ) : (
              <PageLoading />
            )}
          </div>
        )
      })}
    </>
  )
}
