import { memo, Suspense, useEffect, useMemo, useRef } from 'react'
import { NavigationType, parsePath, Route, Routes, UNSAFE_LocationContext as LocationContext, UNSAFE_RouteContext as RouteContext } from 'react-router-dom'
import { SWRConfig } from 'swr'
import ErrorPage from '../pages/ErrorPage.js'
import { PageErrorBoundary } from './PageErrorBoundary.js'
import { PageLoading } from './PageLoading.js'
import type { ResolvedPage } from './page-registry.js'
import { refreshed, type PageTab } from '../app/tab-store.js'
import { PaneContext } from '../app/pane-context.js'
import { paneFreshness } from '../app/pane-freshness.js'
import { ROUTE_ANIMATION } from '../../shared/look/ui-constants.js'

interface Props {
  tabs: PageTab[]
  activeKey: string | undefined
  resolve: (key: string) => ResolvedPage | undefined
  /** Menus not loaded yet: a tab that does not resolve may still be valid. */
  menusReady: boolean
}

/** 刷新's spinner: its time runs from when it is on screen, not from the click (a busy page would cut it short). */
function RefreshSpinner({ tabKey, ms }: { tabKey: string; ms: number }) {
  useEffect(() => {
    const timer = setTimeout(() => refreshed(tabKey), ms)
    return () => clearTimeout(timer)
  }, [tabKey, ms])
  return <PageLoading />
}

/**
 * Every open tab stays mounted and is only hidden while inactive, so lists keep their filters and
 * scroll position (and read again when shown after a write elsewhere: PaneContext); pages whose menu sets noCache are mounted only while shown. A tab is mounted when it is
 * first shown, not before: after a reload (the tabs come back from the session) only the visible one loads,
 * and the others load when they are chosen.
 */
export function TabPanes({ tabs, activeKey, resolve, menusReady }: Props) {
  const shown = useRef(new Set<string>())
  if (activeKey) shown.current.add(activeKey)
  return (
    <>
      {tabs
        .filter((tab) => tab.key === activeKey || shown.current.has(tab.key))
        .map((tab) => (
          <Pane key={tab.key} tab={tab} active={tab.key === activeKey} resolve={resolve} menusReady={menusReady} />
        ))}
    </>
  )
}

// A hidden tab's reads do no work: a write elsewhere does not make them fetch behind the user's back; they
// read again when shown, if a write happened meanwhile (app/pane-freshness.ts).
const PANE_SWR = { use: [paneFreshness] }

/** A pane's pages are routed from the top, as the shell's `/*` route would: the same route object for every render. */
const PANE_ROUTE = { outlet: null, matches: [], isDataRoute: false }

// App settings (001 §9): a page fades in when its tab is shown (the animation restarts as `hidden` is lifted).
const PANE_FADE = { animation: `${ROUTE_ANIMATION.name} ${ROUTE_ANIMATION.durationMs}ms ease-in` }

interface PaneProps {
  tab: PageTab
  active: boolean
  resolve: Props['resolve']
  menusReady: boolean
}

/**
 * One tab's page. Kept from rendering again unless its own tab, its visibility or the shell's resolver
 * changed: opening, closing or switching a tab must not re-render the pages of the other open tabs, whose
 * work grows with every tab kept open.
 */
const Pane = memo(function Pane({ tab, active, resolve, menusReady }: PaneProps) {
  const page = resolve(tab.key)
  const pane = useMemo(() => ({ key: tab.key, shown: active }), [tab.key, active])
  // The pane's own address and route in place of the browser's and the shell's: the pages (their Routes,
  // useNavigate, useParams) would render again at every navigation otherwise, in every open tab, through the
  // memo above (with 15 tabs open that was 280 ms of renders behind each click in the menu).
  const location = useMemo(() => ({ location: { state: null, key: tab.key, pathname: '/', search: '', hash: '', ...parsePath(tab.fullPath) }, navigationType: NavigationType.Pop }), [tab.key, tab.fullPath])
  if (!active && (!page || page.noCache)) return null
  return (
    <div className="shell-pane" hidden={!active} data-page={tab.key} style={PANE_FADE}>
      <SWRConfig value={PANE_SWR}>
        <LocationContext.Provider value={location}>
          <RouteContext.Provider value={PANE_ROUTE}>
            <PaneContext.Provider value={pane}>
              {tab.refreshing !== undefined ? (
                <RefreshSpinner tabKey={tab.key} ms={tab.refreshing} />
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
            </PaneContext.Provider>
          </RouteContext.Provider>
        </LocationContext.Provider>
      </SWRConfig>
    </div>
  )
})
