import { useEffect, useRef, useState } from 'react'

/** The last width measured of each kind of box (`alike`): the page lists of the shell share the content's width. */
const lastWidths = new Map<string, number>()

/**
 * The content width of an element as it changes (0 until it is laid out): what a table's columns are fitted
 * to. Boxes `alike` (a list page's table box) start at the width the last of them had, so the first render
 * is fitted already and the measure that follows it, the same, renders nothing again.
 */
export function useBoxWidth<E extends HTMLElement = HTMLDivElement>(alike?: string) {
  const box = useRef<E>(null)
  const [width, setWidth] = useState(() => (alike && lastWidths.get(alike)) || 0)
  useEffect(() => {
    const el = box.current
    if (!el) return
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.floor(entry.contentRect.width)
      // A hidden tab measures 0: not a width the next list will have.
      if (alike && measured > 0) lastWidths.set(alike, measured)
      setWidth(measured)
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [alike])
  return [box, width] as const
}
