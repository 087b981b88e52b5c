import { Button, Result } from 'antd'
import { useNavigate } from 'react-router-dom'
import { usePageTitle } from '../app/system-info.js'

export type ErrorKind = '403' | '404' | '500' | 'developing'

const TEXT: Record<ErrorKind, { status: '403' | '404' | '500'; title: string; subTitle: string }> = {
  '403': { status: '403', title: '403', subTitle: '抱歉，您无权访问此页面。' },
  '404': { status: '404', title: '404', subTitle: '抱歉，您访问的页面不存在。' },
  '500': { status: '500', title: '500', subTitle: '抱歉，服务器出错了，请稍后重试。' },
  developing: { status: '404', title: '页面开发中', subTitle: '该页面正在开发中，敬请期待！' },
}

/**
 * The 403/404/500 pages (000 §2), full screen on their own routes or inside a tab (`embedded`), where
 * they must not take over the document title.
 */
export default function ErrorPage({ kind, embedded = false, detail }: { kind: ErrorKind; embedded?: boolean; detail?: string }) {
  const navigate = useNavigate()
  const text = TEXT[kind]
  return (
    <div className={embedded ? 'error-page error-page-embedded' : 'error-page'}>
      {!embedded && <ErrorTitle name={kind === 'developing' ? '页面开发中' : text.title} />}
      <Result
        status={text.status}
        title={text.title}
        subTitle={detail ?? text.subTitle}
        extra={
          <Button type="primary" onClick={() => navigate('/')}>
            返回首页
          </Button>
        }
      />
    </div>
  )
}

function ErrorTitle({ name }: { name: string }) {
  usePageTitle(name)
  return null
}
