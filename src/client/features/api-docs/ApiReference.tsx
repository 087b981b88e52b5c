import { useLayoutEffect, useMemo } from 'react'
import { ApiReferenceReact } from '@scalar/api-reference-react'
import '@scalar/api-reference-react/style.css'
import { Spin } from 'antd'
import { getToken, requestDocument } from '../../api/http.js'
import { useLoad } from '../system/use-load.js'
import type { ReferenceTarget } from './ApiDocsPage.js'

interface OpenApiDocument {
  paths: Record<string, Record<string, { tags?: string[] }>>
  [key: string]: unknown
}

/** The document with only the calls of one group (its shared schemas and refusals stay whole). */
function groupOf(document: OpenApiDocument, tag: string): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {}
  for (const [path, operations] of Object.entries(document.paths)) {
    const mine = Object.entries(operations).filter(([, op]) => op.tags?.[0] === tag)
    if (mine.length) paths[path] = Object.fromEntries(mine)
  }
  return { ...document, paths }
}

/**
 * The server's OpenAPI document (GET /cloud-api/openapi.json) rendered by Scalar: one group's calls, or all of
 * them. Scalar lays out every call it is given before anything shows (about 1.2 s for one call, 2-3 s for all
 * 850), so the index opens a group. A call to show is Scalar's own link (`#tag/{group}/{METHOD}{path}`), set
 * before it reads the address.
 */
export default function ApiReference({ target }: { target: ReferenceTarget }) {
  const { data } = useLoad('openapi-document', () => requestDocument<OpenApiDocument>('/openapi.json'))
  const configuration = useMemo(
    () =>
      data && {
        content: target.tag ? groupOf(data, target.tag) : data,
        withDefaultFonts: false,
        hideClientButton: true,
        authentication: { preferredSecurityScheme: 'authToken', securitySchemes: { authToken: { value: getToken() ?? '' } } },
      },
    [data, target.tag],
  )
  // Before Scalar mounts (in its effect, after this one) and reads the address; the page's own address again after.
  const { method, path } = target.call ?? {}
  useLayoutEffect(() => {
    if (!configuration) return
    const own = `${window.location.pathname}${window.location.search}`
    if (method && path) window.history.replaceState(window.history.state, '', `${own}#tag/${target.tag}/${method}${path}`)
    return () => window.history.replaceState(window.history.state, '', own)
  }, [configuration, target.tag, method, path])
  if (!configuration) return <Spin />
  return (
    // The reference is the wire contract (its summaries and messages are the spec's Chinese): data, not screen words.
    <div className="api-docs" data-sweep="data">
      <ApiReferenceReact key={target.tag ?? ''} configuration={configuration} />
    </div>
  )
}
