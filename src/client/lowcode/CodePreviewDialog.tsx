import { Button, Modal, Result, Spin, Tabs } from 'antd'
import { DownloadOutlined } from '@ant-design/icons'
import { download } from '../api/http.js'
import LazyMonaco from './LazyMonaco.js'
import { useTr } from '../i18n/use-tr.js'
import { useCall } from '../app/use-call.js'
import { lowcode } from '../../shared/contracts/lowcode.js'

const languageOf = (name: string) => (name.endsWith('.json') ? 'json' : name.endsWith('.ts') ? 'typescript' : 'plaintext')

/** 代码预览 of a data entity: one read-only Monaco tab per generated file, and the zip download. */
export default function CodePreviewDialog({ entityId, onClose }: { entityId: string; onClose: () => void }) {
  const tr = useTr()
  const { data, error } = useCall(lowcode.entityPreview, { id: entityId }, { swr: { revalidateOnFocus: false } })
  return (
    <Modal
      open
      title={tr('代码预览')}
      width="80%"
      onCancel={onClose}
      destroyOnClose
      footer={[
        <Button key="zip" type="primary" icon={<DownloadOutlined />} onClick={() => void download('get', '/gen/data/entity/download', { query: { id: entityId } })}>
          {tr('下载代码')}
        </Button>,
        <Button key="close" onClick={onClose}>
          {tr('关闭')}
        </Button>,
      ]}
    >
      {error ? (
        <Result status="warning" title={tr('预览失败')} />
      ) : !data ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : (
        <Tabs
          items={data.map((f) => ({
            key: f.fileName,
            label: f.fileName.split('/').pop(),
            children: <LazyMonaco language={languageOf(f.fileName) as 'json' | 'typescript' | 'plaintext'} value={f.content} readOnly height={480} ariaLabel={f.fileName} />,
          }))}
        />
      )}
    </Modal>
  )
}
