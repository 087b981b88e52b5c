import { lazy, Suspense } from 'react'
import { Button, Result, Spin } from 'antd'
import { useNavigate, useSearchParams } from 'react-router-dom'
import { usePageTitle } from '../../app/system-info.js'
import { term, useTr } from '../../i18n/use-tr.js'

/** 001 §8. */
export const EXCEL_MISSING = term('Excel文件不存在！')

// FortuneSheet is a chunk of its own, loaded only when a sheet is opened (bench bundle-size).
const SpreadsheetEditor = lazy(() => import('./online-excel/SpreadsheetEditor.js'))

/** The public spreadsheet route `/online-excel?id=` (001 §2): the editor of that sheet, or the missing-id error. */
export default function OnlineExcel() {
  const tr = useTr()
  usePageTitle(tr('在线Excel'))
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const id = params.get('id')?.trim()
  if (id)
    return (
      <Suspense fallback={<Spin style={{ display: 'block', padding: 48 }} />}>
        <SpreadsheetEditor key={id} id={id} />
      </Suspense>
    )
  return (
    <div className="error-page">
      <Result
        status="error"
        title={tr(EXCEL_MISSING)}
        extra={
          <Button type="primary" onClick={() => navigate('/')}>
            {tr('返回首页')}
          </Button>
        }
      />
    </div>
  )
}
