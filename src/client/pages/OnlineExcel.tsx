import { Button, Result } from 'antd'
import { useNavigate, useSearchParams } from 'react-router-dom'
import { usePageTitle } from '../app/system-info.js'

/** 001 §8. */
export const EXCEL_MISSING = 'Excel文件不存在！'

/**
 * The public spreadsheet route `/online-excel?id=` (001 §2). It reads the id; the editor itself
 * (FortuneSheet, a lazy chunk) arrives with the spreadsheet issue and mounts here.
 */
export default function OnlineExcel() {
  usePageTitle('在线Excel')
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const id = params.get('id')?.trim()
  return (
    <div className="error-page">
      {id ? (
        <Result status="info" title="在线Excel" subTitle={`文件ID：${id}。在线表格编辑器即将上线。`} />
      ) : (
        <Result
          status="error"
          title={EXCEL_MISSING}
          extra={
            <Button type="primary" onClick={() => navigate('/')}>
              返回首页
            </Button>
          }
        />
      )}
    </div>
  )
}
