import { lazy, Suspense, useState } from 'react'
import { Button, Select, Space, Upload } from 'antd'
import { ConfirmLink } from '../../components/ConfirmLink.js'
import { PlusOutlined, UploadOutlined } from '@ant-design/icons'
import { call, callDownload } from '../../api/call.js'
import { useCall } from '../../app/use-call.js'
import { usePermission } from '../../app/session.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import ListView, { type ListRow } from '../../runtime/ListView.js'
import { PRINT_TEMPLATE_VIEW } from '../../views/print-templates.js'
import { useTr } from '../../i18n/use-tr.js'
import { print, type PrintTemplateFile, type PrintTemplateRow } from '../../../shared/contracts/print.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'
import type { DesignerInput } from './PrintDesigner.js'

const PrintDesigner = lazy(() => import('./PrintDesigner.js'))
const KEYS = PERMISSION.system.printTemplate
type Row = PrintTemplateRow & ListRow

/**
 * 打印模板 (menu component `/system/print-template/index`): each document kind's templates; 新建 starts
 * from the kind's built-in layout, 设计 opens the designer on the current version, 导出/导入 move a
 * template as a file, 设为默认 chooses what 打印 uses.
 */
export default function PrintTemplatePage() {
  return (
    <FeedbackProvider>
      <PrintTemplates />
    </FeedbackProvider>
  )
}

function PrintTemplates() {
  const tr = useTr()
  const { message } = useFeedback()
  const can = usePermission()
  const { data: kinds } = useCall(print.kinds, undefined)
  const [kind, setKind] = useState<string>()
  const [version, setVersion] = useState(0)
  const [designing, setDesigning] = useState<{ kind: string; input: DesignerInput }>()
  const reload = () => setVersion((v) => v + 1)
  const chosenKind = kind ?? kinds?.[0]?.kind
  const kindInfo = kinds?.find((k) => k.kind === designing?.kind)

  const create = async () => {
    if (!chosenKind) return
    try {
      const content = await call(print.builtin, { kind: chosenKind })
      const label = kinds?.find((k) => k.kind === chosenKind)?.label ?? ''
      setDesigning({ kind: chosenKind, input: { name: `${label}${tr('打印模板')}`, content } })
    } catch {
      // Shown by the api layer.
    }
  }
  const design = async (row: Row) => {
    try {
      const detail = await call(print.get, { id: row.id })
      setDesigning({ kind: row.kind, input: { id: row.id, version: detail.version, name: detail.name, content: detail.content } })
    } catch {
      // Shown by the api layer.
    }
  }
  const act = async (run: () => Promise<unknown>, done: string) => {
    try {
      await run()
      message.success(done)
      reload()
    } catch {
      // Shown by the api layer.
    }
  }
  const importFile = (file: File) => {
    void file.text().then((text) => {
      let parsed: PrintTemplateFile
      try {
        parsed = JSON.parse(text) as PrintTemplateFile
      } catch {
        message.error(tr('文件不是打印模板'))
        return
      }
      void act(() => call(print.import, { kind: parsed.content?.kind ?? chosenKind ?? '', file: parsed }), tr('导入成功'))
    })
    return false
  }

  return (
    <>
      <ListView<Row>
        className="system-print-templates"
        source={PRINT_TEMPLATE_VIEW}
        version={version}
        renderToolbar={() => [
          <Select
            key="kind"
            aria-label={tr('单据类型')}
            style={{ width: 180 }}
            value={chosenKind}
            onChange={setKind}
            options={(kinds ?? []).map((k) => ({ value: k.kind, label: k.label }))}
          />,
          can([KEYS.add]) && (
            <Button key="add" type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => void create()}>
              {tr('新建')}
            </Button>
          ),
          can([KEYS.import]) && (
            <Upload key="import" accept=".json" showUploadList={false} beforeUpload={importFile}>
              <Button icon={<UploadOutlined aria-hidden />}>{tr('导入')}</Button>
            </Upload>
          ),
        ]}
        rowActionsWidth={260}
        renderRowActions={(row) => (
          <Space size={0}>
            {can([KEYS.modify]) && (
              <Button type="link" size="small" onClick={() => void design(row)}>
                {tr('设计')}
              </Button>
            )}
            {can([KEYS.modify]) && !row.isDefault && (
              <Button type="link" size="small" onClick={() => void act(() => call(print.setDefault, { id: row.id }), tr('操作成功！'))}>
                {tr('设为默认')}
              </Button>
            )}
            {can([KEYS.export]) && (
              <Button type="link" size="small" onClick={() => void callDownload(print.export, { id: row.id }).catch(() => {})}>
                {tr('导出')}
              </Button>
            )}
            {can([KEYS.delete]) && (
              <ConfirmLink title={tr('确定删除该数据？')} onConfirm={() => void act(() => call(print.delete, { id: row.id }), tr('删除成功！'))}>
                {tr('删除')}
              </ConfirmLink>
            )}
          </Space>
        )}
        emptyText={tr('还没有打印模板，打印时使用系统默认模板')}
      />
      {designing && kindInfo && (
        <Suspense fallback={null}>
          <PrintDesigner
            kind={kindInfo}
            input={designing.input}
            onClose={() => setDesigning(undefined)}
            onSaved={() => {
              setDesigning(undefined)
              reload()
            }}
          />
        </Suspense>
      )}
    </>
  )
}
