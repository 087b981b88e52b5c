import { useEffect, type RefObject } from 'react'
import { TABLE_HEIGHT } from '../../shared/look/ui-constants.js'

/**
 * The rows' height of a list page (000 §9 default table height): the viewport less the spec's offset
 * (360 with a search card, 140 without), or less what really stands above and below the rows when that
 * is more, never below the floor.
 */
export function fittedRowsHeight(viewport: number, around: number, withSearch: boolean): number {
  const offset = Math.max(withSearch ? TABLE_HEIGHT.withSearch : TABLE_HEIGHT.plain, around)
  return Math.max(TABLE_HEIGHT.minRows, Math.round(viewport - offset))
}

/** The page content a list page sits in; a list elsewhere (a dialog, a drawer, the phone shell) keeps its own height. */
const PAGE_CONTENT = '.shell-content'

/** What stands below `el` up to and including the page content's own padding (cards' paddings and borders). */
function spaceBelow(el: HTMLElement, content: Element): number {
  let sum = 0
  for (let node = el.parentElement; node; node = node.parentElement) {
    const style = getComputedStyle(node)
    sum += parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth)
    if (node === content) break
    sum += parseFloat(style.marginBottom)
  }
  return sum
}

/** The variable a list page's table box carries: the fitted rows' height, changed without rendering the list again. */
const ROWS_HEIGHT = '--list-rows-height'

/**
 * The rows' height of a list page's table inside `wrapper` (in the page content, not in a dialog), as a CSS
 * length antd takes for `scroll.y`: a variable set on the wrapper, measured again as the window or the list's
 * surroundings change size (the pager showing up with the first rows, a search form opened wider). Until the
 * first measure it is the spec's default. A change of the measure moves the rows' height without a render of
 * the list (rendering a page of rows again cost 40-70 ms of a list page's opening). Undefined when not `enabled`.
 * While the page is hidden its tab keeps its last height.
 */
export function useFittedRowsHeight(wrapper: RefObject<HTMLElement | null>, withSearch: boolean, enabled: boolean): string | undefined {
  useEffect(() => {
    const el = wrapper.current
    if (!enabled || !el) return
    const content = el.closest(PAGE_CONTENT)
    // A list that is not a page's grows with its rows (the caller should not have enabled it).
    if (!content || el.closest('.ant-modal, .ant-drawer')) {
      el.style.setProperty(ROWS_HEIGHT, 'none')
      return
    }
    const measure = () => {
      const rows = el.querySelector<HTMLElement>('.ant-table-body') ?? el.querySelector<HTMLElement>('.ant-table-tbody')
      const box = el.getBoundingClientRect()
      if (!rows || box.height === 0) return
      const r = rows.getBoundingClientRect()
      const above = r.top + window.scrollY
      const below = box.bottom - r.bottom + spaceBelow(el, content)
      el.style.setProperty(ROWS_HEIGHT, `${fittedRowsHeight(window.innerHeight, above + below, withSearch)}px`)
    }
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(el)
    // The list's own frame grows when something above the rows does (a search form opened wider).
    const frame = el.parentElement?.closest('.ant-card')?.parentElement
    if (frame) observer.observe(frame)
    window.addEventListener('resize', measure)
    return () => {
      observer.disconnect()
      window.removeEventListener('resize', measure)
    }
  }, [wrapper, withSearch, enabled])
  if (!enabled) return undefined
  // Until the first measure: the spec's rule with nothing measured around the rows.
  return `var(${ROWS_HEIGHT}, ${fittedRowsHeight(window.innerHeight, 0, withSearch)}px)`
}
