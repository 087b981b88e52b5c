import { lazy, Suspense } from 'react'
import { registerMenuPage } from '../../app/menu-pages.js'
import { registerRowAction } from '../../runtime/row-actions.js'
import { editorUrl, swApi } from './sw-api.js'
import { tr } from '../../i18n/use-tr.js'

/**
 * 便捷办公 (menus 文件收纳箱 and 在线Excel): the two list pages, and their row actions: open a sheet in the
 * editor (the public /online-excel route, a new window), export it, send it or a file, download a file.
 */
const OnlineExcelListPage = lazy(() => import('./OnlineExcelListPage.js'))
const FileBoxPage = lazy(() => import('./FileBoxPage.js'))
const SendDialog = lazy(() => import('./SendDialog.js'))

registerMenuPage('/smart-work/online-excel/index', () => <OnlineExcelListPage />)
registerMenuPage('/smart-work/file-box/index', () => <FileBoxPage />)

registerRowAction('swOnlineExcel', 'open', (row) => {
  window.open(editorUrl(row.id), '_blank')
})
registerRowAction('swOnlineExcel', 'export', (row) => {
  void swApi.exportExcel(row.id).catch(() => {})
})
registerRowAction('swOnlineExcel', 'send', (row, _reload, close) => (
  <Suspense>
    <SendDialog title={tr('发送在线Excel：') + String(row.name ?? '')} send={(userIds) => swApi.sendExcel(row.id, userIds)} onClose={close} />
  </Suspense>
))
registerRowAction('swFileBox', 'download', (row) => {
  void swApi.downloadFile(row.id).catch(() => {})
})
registerRowAction('swFileBox', 'send', (row, _reload, close) => (
  <Suspense>
    <SendDialog title={tr('发送文件：') + String(row.name ?? '')} send={(userIds) => swApi.sendFile(row.id, userIds)} onClose={close} />
  </Suspense>
))
