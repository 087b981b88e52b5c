import { useMemo, useState } from 'react'
import { Modal } from 'antd'
import { declaredCalls } from '../../../shared/contracts/document-calls.js'
import type { Meta } from '../../api/meta.js'
import type { DocumentSection } from '../../../shared/metadata/document-model.js'
import { useTr } from '../../i18n/use-tr.js'
import ListView from '../ListView.js'
import type { ListSource } from '../list-source.js'

export type Candidates = NonNullable<NonNullable<DocumentSection['lines']['pick']>['candidates']>
type CandidateRow = Record<string, unknown>

export interface CandidateDialogProps {
  meta: Meta
  candidates: Candidates
  /** The line field identifying a candidate (`lines.pick.field`). */
  keyField: string
  /** Query of the call: the party and the date range from the header. */
  query: Record<string, unknown>
  /** Keys already on the document: shown ticked and disabled. */
  taken: ReadonlySet<string>
  open: boolean
  onCancel: () => void
  onConfirm: (rows: CandidateRow[]) => void
}

/** The declared candidates call of a document's lines as a list source: its columns, keyed by the line's field. */
function candidateSource(candidates: Candidates, keyField: string): ListSource {
  return {
    name: 'document-candidates',
    call: declaredCalls.candidates(candidates),
    query: [],
    columns: (candidates.columns ?? []).map((c) => ({ key: c.key, title: c.title, width: c.width })),
    rowKey: keyField,
    seq: false,
    size: 'small',
  }
}

/**
 * The candidates of a document's lines from a paged server call (unchecked documents of a supplier for
 * a check sheet, unsettled check sheets for a settle sheet): filtered by the header's party and date
 * range on the server, ticks kept across pages.
 */
export default function CandidateDialog({ meta, candidates, keyField, query, taken, open, onCancel, onConfirm }: CandidateDialogProps) {
  const tr = useTr()
  const [chosen, setChosen] = useState<CandidateRow[]>([])
  const source = useMemo(() => candidateSource(candidates, keyField), [candidates, keyField])
  const labelKey = candidates.columns?.[0]?.key ?? keyField
  const render = Object.fromEntries(
    (candidates.columns ?? []).flatMap((c) => (c.enum ? [[c.key, (row: CandidateRow) => meta.enums.label(c.enum!, row[c.key]) ?? String(row[c.key] ?? '')]] : [])),
  )
  return (
    <Modal
      open={open}
      title={tr(candidates.title ?? '选择单据')}
      width={1000}
      onCancel={onCancel}
      onOk={() => onConfirm(chosen)}
      okText={tr('确定')}
      cancelText={tr('取消')}
      destroyOnHidden
    >
      <ListView<CandidateRow>
        meta={meta}
        rowsGrow
        source={source}
        params={query}
        render={render}
        choose="multiple"
        taken={taken}
        onChoose={setChosen}
        chooseLabel={(row) => tr(`选择${String(row[labelKey] ?? '')}`)}
        emptyText={tr('没有可选的单据')}
      />
    </Modal>
  )
}
