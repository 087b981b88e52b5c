import { lazy, Suspense, useState } from 'react'
import { Button, Space, Tag, theme, Typography } from 'antd'
import { ArrowLeftOutlined, ReadOutlined } from '@ant-design/icons'
import ListView, { type ListRow } from '../../runtime/ListView.js'
import { API_CALLS_VIEW } from '../../views/api-calls.js'
import { useTr } from '../../i18n/use-tr.js'
import type { ApiCallRow } from '../../../shared/contracts/meta.js'

/** Scalar lays out every call it is given before it shows anything: it loads only when a reference is opened. */
const ApiReference = lazy(() => import('./ApiReference.js'))

type Row = ApiCallRow & ListRow

/** What the reference shows: one group, scrolled to one of its calls, or the whole document. */
export interface ReferenceTarget {
  tag?: string
  call?: Pick<ApiCallRow, 'method' | 'path'>
}

const METHOD_COLORS: Record<string, string> = { GET: 'blue', POST: 'green', PUT: 'orange', PATCH: 'gold', DELETE: 'red' }

/**
 * 接口文档 (开发管理 › 接口文档, menu component `/development/api-docs/index`): the index of every call of the
 * server's OpenAPI document (views/api-calls.ts), searched by path, summary or permission key. A call's path
 * opens the Scalar reference of its group at that call, 完整文档 the reference of every call; "try it" sends
 * the signed-in session's token. The index stays as it was behind the reference (its search and page).
 */
export default function ApiDocsPage() {
  const tr = useTr()
  const { token } = theme.useToken()
  const [target, setTarget] = useState<ReferenceTarget>()
  const access: Record<string, string> = { permission: tr('需权限键'), login: tr('登录即可'), public: tr('公开') }
  return (
    <>
      <div hidden={Boolean(target)}>
        <ListView<Row>
          className="api-calls"
          source={API_CALLS_VIEW}
          render={{
            method: (r) => <Tag color={METHOD_COLORS[r.method]}>{r.method}</Tag>,
            path: (r) => (
              <Typography.Link onClick={() => setTarget({ tag: r.tag, call: r })} data-sweep="data">
                {r.path}
              </Typography.Link>
            ),
            // The summaries are the wire contract's words (an entity's label and its path): data, not screen words.
            summary: (r) => <span data-sweep="data">{r.summary}</span>,
            access: (r) => access[r.access] ?? r.access,
            permissions: (r) => <span data-sweep="data">{r.permissions.join('、')}</span>,
          }}
          renderToolbar={() => [
            <Button key="all" icon={<ReadOutlined aria-hidden />} onClick={() => setTarget({})}>
              {tr('完整文档')}
            </Button>,
          ]}
        />
      </div>
      {target && (
        <div className="api-reference-view">
          <Space className="api-reference-bar" style={{ background: token.colorBgLayout }}>
            <Button icon={<ArrowLeftOutlined aria-hidden />} onClick={() => setTarget(undefined)}>
              {tr('返回接口目录')}
            </Button>
            <Typography.Text type="secondary" data-sweep="data">
              {target.tag ?? tr('全部接口')}
            </Typography.Text>
          </Space>
          <Suspense fallback={null}>
            <ApiReference target={target} />
          </Suspense>
        </div>
      )}
    </>
  )
}
