import { Component, type ReactNode } from 'react'
import { useT } from '../i18n/use-t.js'
import ErrorPage from '../pages/ErrorPage.js'

const FAILED_LOAD = /dynamically imported module|Importing a module script failed|Failed to fetch|error loading dynamically/i

function PageFailed({ error }: { error: Error }) {
  const t = useT()
  const detail = FAILED_LOAD.test(error.message) ? t('error.loadFailed') : t('error.renderFailed', { message: error.message })
  return <ErrorPage kind="500" embedded detail={detail} />
}

/** A page that fails to load or render shows the error page inside its tab; the shell stays usable. */
export class PageErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null }

  static getDerivedStateFromError(error: Error) {
    return { error }
  }

  override componentDidCatch(error: Error) {
    console.error(error)
  }

  override render() {
    return this.state.error ? <PageFailed error={this.state.error} /> : this.props.children
  }
}
