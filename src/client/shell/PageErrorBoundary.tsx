import { Component, type ReactNode } from 'react'
import ErrorPage from '../pages/ErrorPage.js'

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
    if (this.state.error) {
      const failedLoad = /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(this.state.error.message)
      return <ErrorPage kind="500" embedded detail={failedLoad ? '页面加载失败，请刷新后重试。' : `页面出现错误：${this.state.error.message}`} />
    }
    return this.props.children
  }
}
