import { Spin } from 'antd'

/** The spinner a page shows while its chunk or first read is on the way (a route, a tab, the shell). */
export const PageLoading = () => (
  <div className="page-loading" role="status" aria-busy="true">
    <Spin />
  </div>
)
