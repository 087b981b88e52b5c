import { Card, Descriptions, Result } from 'antd'
import { AppstoreOutlined } from '@ant-design/icons'
import { useT } from '../i18n/use-t.js'
import type { LowCodeHostProps } from './menu-pages.js'

/**
 * Stands in for the low-code runtimes until that issue registers them (registerLowCodeHost): the
 * routing is complete, so the host shows what it received.
 */
export function LowCodePlaceholder({ kind, id, requestParam, inputs }: LowCodeHostProps) {
  const t = useT()
  const title = t(kind === 'list' ? 'lowcode.list' : kind === 'form' ? 'lowcode.form' : 'lowcode.page')
  return (
    <Card className="lowcode-placeholder" data-lowcode-kind={kind} data-lowcode-id={id}>
      <Result icon={<AppstoreOutlined />} title={title} subTitle={t('lowcode.pending')} />
      <Descriptions bordered size="small" column={1}>
        <Descriptions.Item label={kind === 'list' ? 'customListId' : kind === 'form' ? 'formId' : 'pageId'}>{id || '-'}</Descriptions.Item>
        {kind === 'form' && <Descriptions.Item label="requestParam">{requestParam ? JSON.stringify(requestParam) : '-'}</Descriptions.Item>}
        <Descriptions.Item label="inputs">{Object.keys(inputs).length ? JSON.stringify(inputs) : '-'}</Descriptions.Item>
      </Descriptions>
    </Card>
  )
}
