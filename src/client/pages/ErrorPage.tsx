import { Button, Result } from 'antd'
import { useNavigate } from 'react-router-dom'
import { usePageTitle } from '../app/system-info.js'
import { useT } from '../i18n/use-t.js'
import type { MessageKey } from '../i18n/messages.js'

export type ErrorKind = '403' | '404' | '500' | 'developing'

const TEXT: Record<ErrorKind, { status: '403' | '404' | '500'; title?: MessageKey; subTitle: MessageKey }> = {
  '403': { status: '403', subTitle: 'error.403' },
  '404': { status: '404', subTitle: 'error.404' },
  '500': { status: '500', subTitle: 'error.500' },
  developing: { status: '404', title: 'error.developing', subTitle: 'error.developing.detail' },
}

/**
 * The 403/404/500 pages (000 §2), full screen on their own routes or inside a tab (`embedded`), where
 * they must not take over the document title. Each has a back-to-home button.
 */
export default function ErrorPage({ kind, embedded = false, detail }: { kind: ErrorKind; embedded?: boolean; detail?: string }) {
  const navigate = useNavigate()
  const t = useT()
  const text = TEXT[kind]
  const title = text.title ? t(text.title) : kind
  return (
    <div className={embedded ? 'error-page error-page-embedded' : 'error-page'} data-error-page={kind}>
      {!embedded && <ErrorTitle name={title} />}
      <Result
        status={text.status}
        title={title}
        subTitle={detail ?? t(text.subTitle)}
        extra={
          <Button type="primary" onClick={() => navigate('/')}>
            {t('error.backHome')}
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
