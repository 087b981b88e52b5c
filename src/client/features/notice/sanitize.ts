import DOMPurify from 'dompurify'

/**
 * The one way notice HTML reaches the page. The server already filters it (xss allow-list); this is
 * the browser's own line: no scripts, event handlers, `javascript:` URLs, forms or style sheets.
 */
const purifier = DOMPurify(window)

purifier.addHook('afterSanitizeAttributes', (node) => {
  // Links open in a new tab without handing it this window.
  if (node.tagName === 'A' && node.getAttribute('href')) {
    node.setAttribute('target', '_blank')
    node.setAttribute('rel', 'noopener noreferrer nofollow')
  }
})

export function sanitizeHtml(html: string | null | undefined): string {
  if (!html) return ''
  return purifier.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option'],
    ADD_ATTR: ['target'],
  })
}
