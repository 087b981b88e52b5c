import { ApiReferenceReact } from '@scalar/api-reference-react'
import { Spin } from 'antd'
import { getToken, requestDocument } from '../../api/http.js'
import { useLoad } from '../system/use-load.js'

/**
 * 接口文档 (开发管理 › 接口文档): the OpenAPI document of the server (GET /cloud-api/openapi.json) rendered
 * by Scalar; "try it" sends the signed-in session's token, so a call answers as it would to this user.
 */
export default function ApiDocsPage() {
  const { data } = useLoad('openapi-document', () => requestDocument<Record<string, unknown>>('/openapi.json'))
  if (!data) return <Spin />
  return (
    // The reference is the wire contract (its summaries and messages are the spec's Chinese): data, not screen words.
    <div className="api-docs" data-sweep="data">
      <ApiReferenceReact
        configuration={{
          content: data,
          withDefaultFonts: false,
          hideClientButton: true,
          authentication: { preferredSecurityScheme: 'authToken', securitySchemes: { authToken: { value: getToken() ?? '' } } },
        }}
      />
    </div>
  )
}
