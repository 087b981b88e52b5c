import { Button, Space } from 'antd'
import { FileAddOutlined } from '@ant-design/icons'
import { useNavigate } from 'react-router-dom'
import { usePermission } from '../../app/session.js'
import EntityPage from '../../runtime/EntityPage.js'
import { useTr } from '../../i18n/use-tr.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/** 开票管理: the invoices of documents (entity settleInvoice) and 按单据开票, the page /invoice/export/add. */
export default function InvoiceExportPage() {
  const tr = useTr()
  const can = usePermission()
  const navigate = useNavigate()
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12}>
      {can(PERMISSION.settle.invoiceExport.add) && (
        <div style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button type="primary" icon={<FileAddOutlined aria-hidden />} onClick={() => navigate('/invoice/export/add')}>
            {tr('按单据开票')}
          </Button>
        </div>
      )}
      <EntityPage entityName="settleInvoice" />
    </Space>
  )
}
