import { useEffect, useState, type RefObject } from 'react'
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

/**
 * The fitted rows' height of the table inside `wrapper` when it is a list page's (in the page content,
 * not in a dialog), measured again as the window or the list's surroundings change size; undefined
 * elsewhere or while the page is hidden (a tab in the background keeps its last height).
 */
export function useFittedRowsHeight(wrapper: RefObject<HTMLElement | null>, withSearch: boolean, enabled: boolean): number | undefined {
  const [height, setHeight] = useState<number>()
  useEffect(() => {
    const el = wrapper.current
    if (!enabled || !el) return
    const content = el.closest(PAGE_CONTENT)
    if (!content || el.closest('.ant-modal, .ant-drawer')) return
    const measure = () => {
      const rows = el.querySelector<HTMLElement>('.ant-table-body') ?? el.querySelector<HTMLElement>('.ant-table-tbody')
      const box = el.getBoundingClientRect()
      if (!rows || box.height === 0) return
      const r = rows.getBoundingClientRect()
      const above = r.top + window.scrollY
      const below = box.bottom - r.bottom + spaceBelow(el, content)
      setHeight(fittedRowsHeight(window.innerHeight, above + below, withSearch))
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
  return height
}
