import { useCallback, useEffect, useRef, useState } from 'react'
import { Workbook, type WorkbookInstance } from '@fortune-sheet/react'
import '@fortune-sheet/react/dist/index.css'
import { Alert, Button, Result, Space, Spin, Typography } from 'antd'
import { SaveOutlined } from '@ant-design/icons'
import { ApiError } from '../../../api/http.js'
import { useFeedback } from '../../../components/feedback.js'
import { swApi } from '../sw-api.js'
import type { WorkbookContent } from '../../../../shared/contracts/smart-work.js'
import { firstCellSelection, isUnalignedNumber, RIGHT, toEditorSheets, toStoredSheets } from './workbook-content.js'
import { preferChineseUiFont } from './sheet-fonts.js'
import { term, useTr } from '../../../i18n/use-tr.js'
import { ExportButton } from '../../../components/ExportButton.js'

/** 001 §2: the editor's warning. */
export const EXCEL_WARNING = term('温馨提示：在线Excel不支持复杂的Excel文件，仅支持简单的文本编辑和数字计算，重要文件请做好备份！')

type Sheets = Parameters<typeof Workbook>[0]['data']

preferChineseUiFont()

/**
 * The spreadsheet editor (FortuneSheet, a lazy chunk of its own): loads the stored workbook, 保存 (button
 * and Ctrl+S, with a loading flag; 保存成功) sends the whole book back, 导出文件 saves pending edits and
 * downloads the server's .xlsx export (domain/smart-work/spreadsheet-xlsx.ts).
 */
export default function SpreadsheetEditor({ id }: { id: string }) {
  const tr = useTr()
  const { message } = useFeedback()
  const ref = useRef<WorkbookInstance>(null)
  const [content, setContent] = useState<WorkbookContent>()
  const [failure, setFailure] = useState<string>()
  const [saving, setSaving] = useState(false)
  const dirty = useRef(false)
  const savingRef = useRef(false)

  useEffect(() => {
    let live = true
    swApi.content(id).then(
      (c) => live && setContent({ ...c, sheets: toEditorSheets(c.sheets) }),
      (e: unknown) => live && setFailure(e instanceof ApiError ? e.message : tr('Excel文件不存在！')),
    )
    return () => {
      live = false
    }
  }, [id])

  const save = useCallback(async () => {
    if (!ref.current || !content || savingRef.current) return false
    savingRef.current = true
    setSaving(true)
    try {
      const sheets = toStoredSheets(ref.current.getAllSheets() as never)
      await swApi.saveContent(id, { sheets, info: { name: content.info.name } })
      dirty.current = false
      message.success(tr('保存成功'))
      return true
    } catch {
      // shown by the API layer
      return false
    } finally {
      savingRef.current = false
      setSaving(false)
    }
  }, [content, id, message])

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault()
        void save()
      }
    }
    window.addEventListener('keydown', onKey, true)
    return () => window.removeEventListener('keydown', onKey, true)
  }, [save])

  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (dirty.current) e.preventDefault()
    }
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [])

  // Unsaved edits are saved first, so the file holds what the user sees.
  const exportFile = async () => {
    if (dirty.current && !(await save())) return
    await swApi.exportExcel(id)
  }

  if (failure) return <Result status="error" title={failure} />
  if (!content) return <Spin style={{ display: 'block', padding: 48 }} />
  return (
    <div className="online-excel" style={{ display: 'flex', flexDirection: 'column', height: '100vh' }}>
      <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', padding: '8px 12px', borderBottom: '1px solid #f0f0f0' }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {content.info.name}
        </Typography.Title>
        <Space>
          <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()}>
            {tr('保存')}
          </Button>
          <ExportButton run={exportFile} label={tr('导出文件')} />
        </Space>
      </div>
      <Alert type="warning" showIcon banner message={tr(EXCEL_WARNING)} />
      <div style={{ flex: 1, position: 'relative', minHeight: 0 }} data-testid="sheet-host">
        <Workbook
          ref={ref}
          data={content.sheets as unknown as Sheets}
          lang="zh"
          onOp={() => (dirty.current = true)}
          hooks={{
            // a new sheet opens on A1 as a loaded one does (the name box would read A1:NaN)
            beforeAddSheet: (sheet) => {
              if (!sheet.luckysheet_select_save?.length) sheet.luckysheet_select_save = firstCellSelection() as never
              return true
            },
            // a number typed into a cell with no alignment of its own is shown right-aligned, as on load
            afterUpdateCell: (r, c, _old, value) => {
              if (isUnalignedNumber(value)) ref.current?.setCellFormat(r, c, 'ht', RIGHT)
            },
          }}
        />
      </div>
    </div>
  )
}
