import ChildrenDialog from '../../runtime/ChildrenDialog.js'
import type { EntityRow } from '../../runtime/entity-api.js'
import { useTr } from '../../i18n/use-tr.js'

export interface JobRunsDialogProps {
  job: EntityRow
  onClose: () => void
}

/** 执行记录 of a job: the generic list of qrtzJobRun fixed to the job (start, end, outcome, message). */
export default function JobRunsDialog({ job, onClose }: JobRunsDialogProps) {
  const tr = useTr()
  return (
    <ChildrenDialog
      title={tr('执行记录') + ` - ${String(job.name ?? job.id)}`}
      entityName="qrtzJobRun"
      parentField="jobId"
      parentId={String(job.id)}
      onClose={onClose}
      className="qrtz-runs-dialog"
    />
  )
}
