import { lazy, Suspense, type ComponentType, type ReactNode } from 'react'
import { registerRowAction } from '../../runtime/row-actions.js'
import { registerMenuPage } from '../../app/menu-pages.js'

/**
 * Data dictionaries: the 数据字典 page (menu component `/system/dic/index`: the `dic` entity screen
 * plus 分类管理) and its 字典值 row action, a dialog listing the dictionary's items. Both load on
 * first use.
 */

const DictionaryPage = lazy(() => import('./DictionaryPage.js'))
const DicItemsDialog = lazy(() => import('./DicItemsDialog.js'))

let opened = 0

/** Each opening gets its own key, so a second opening starts fresh. */
function opening<P extends object>(Dialog: ComponentType<P>, props: P): ReactNode {
  opened += 1
  return (
    <Suspense key={`dictionary-action-${opened}`} fallback={null}>
      <Dialog {...props} />
    </Suspense>
  )
}

registerRowAction('dic', 'items', (row, _reload, close) => opening(DicItemsDialog, { dic: row, onClose: close }))
registerMenuPage('/system/dic/index', () => <DictionaryPage />)
