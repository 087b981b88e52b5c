import { Button, Modal } from 'antd'
import type { Meta } from '../../api/meta.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import type { DocumentSection } from '../../../shared/metadata/document-model.js'
import { fieldText } from '../field-text.js'
import type { DocumentRecord } from './document-api.js'
import { documentSums, type DocumentTotals } from '../../../shared/metadata/document-totals.js'
import { lineColumnModels } from './line-columns.js'
import type { LineRow } from './DocumentLines.js'
import { useTr } from '../../i18n/use-tr.js'

export interface DocumentPrintProps {
  open: boolean
  onClose: () => void
  meta: Meta
  header: EntityModel
  lines: EntityModel
  record: DocumentRecord
  rows: LineRow[]
  totals: DocumentTotals
}

/** The print view of a document: its header values and lines as plain tables; 打印 prints only this view (styles.css @media print). */
export default function DocumentPrint({ open, onClose, meta, header, lines, record, rows, totals }: DocumentPrintProps) {
  const tr = useTr()
  const section = header.file.document as DocumentSection
  const headerFields = header.fields.filter((f) => !f.builtin && !f.hidden && f.name !== 'refuseReason')
  const columns = lineColumnModels(lines, section, { readOnly: true })
  const cell = (row: LineRow, key: string) => {
    const f = lines.byName.get(key)
    return f ? fieldText(f, row, meta.enums) : String(row[key] ?? '')
  }
  return (
    <Modal
      open={open}
      title={tr('打印预览')}
      width="80%"
      onCancel={onClose}
      footer={[
        <Button key="close" onClick={onClose}>
          {tr('关闭')}
        </Button>,
        <Button key="print" type="primary" onClick={() => window.print()}>
          {tr('打印')}
        </Button>,
      ]}
    >
      <div className="document-print">
        <h2 style={{ textAlign: 'center' }}>{section.subject}</h2>
        <table className="document-print-header">
          <tbody>
            {headerFields.map((f) => (
              <tr key={f.name}>
                <th>{f.label}</th>
                <td>{fieldText(f, record, meta.enums)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="document-print-lines">
          <thead>
            <tr>
              <th>{tr('序号')}</th>
              {columns.map((c) => (
                <th key={c.key}>{tr(c.title)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={row.__key}>
                <td>{i + 1}</td>
                {columns.map((c) => (
                  <td key={c.key}>{cell(row, c.key)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {section.totals && (
          <p>
            {tr('数量：')}{totals.num}　{tr('赠品数量：')}{totals.giftNum}　{tr('总金额：')}{totals.amount}
          </p>
        )}
        {section.sums && (
          <p>
            {documentSums(rows, section.sums)
              .map((s) => `${header.byName.get(s.field)?.label ?? s.field}：${s.value}`)
              .join('　')}
          </p>
        )}
      </div>
    </Modal>
  )
}
