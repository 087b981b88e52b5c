import { DocumentStatus } from '../../../shared/metadata/document-model.js'

/** Statuses in which a document may still be modified, approved or deleted (domain rules 2.1: 待审核 and 审核拒绝). */
export const EDITABLE_STATUSES: readonly number[] = [DocumentStatus.CREATED, DocumentStatus.APPROVE_REFUSE]

export const isEditableStatus = (status: unknown) => EDITABLE_STATUSES.includes(Number(status))
