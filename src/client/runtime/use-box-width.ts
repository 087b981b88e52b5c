import { useEffect, useRef, useState } from 'react'

/** The content width of an element as it changes (0 until it is laid out): what a table's columns are fitted to. */
export function useBoxWidth<E extends HTMLElement = HTMLDivElement>() {
  const box = useRef<E>(null)
  const [width, setWidth] = useState(0)
  useEffect(() => {
    const el = box.current
    if (!el) return
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry.contentRect.width)))
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  return [box, width] as const
}
