import ChildrenDialog from '../../runtime/ChildrenDialog.js'
import type { EntityRow } from '../../runtime/entity-api.js'

export interface JobRunsDialogProps {
  job: EntityRow
  onClose: () => void
}

/** 执行记录 of a job: the generic list of qrtzJobRun fixed to the job (start, end, outcome, message). */
export default function JobRunsDialog({ job, onClose }: JobRunsDialogProps) {
  return (
    <ChildrenDialog
      title={`执行记录 - ${String(job.name ?? job.id)}`}
      entityName="qrtzJobRun"
      parentField="jobId"
      parentId={String(job.id)}
      onClose={onClose}
      className="qrtz-runs-dialog"
    />
  )
}
