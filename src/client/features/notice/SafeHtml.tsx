import { useMemo } from 'react'
import { sanitizeHtml } from './sanitize.js'
import './notice.css'

export interface SafeHtmlProps {
  html: string | null | undefined
  className?: string
  /** Shown when there is nothing to show. */
  empty?: string
}

/** Rich text shown read-only, always through DOMPurify. */
export default function SafeHtml({ html, className, empty = '-' }: SafeHtmlProps) {
  const clean = useMemo(() => sanitizeHtml(html), [html])
  if (!clean) return <span className="notice-html-empty">{empty}</span>
  return <div className={className ? `notice-html ${className}` : 'notice-html'} dangerouslySetInnerHTML={{ __html: clean }} />
}
